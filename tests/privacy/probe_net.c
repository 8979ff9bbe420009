/* A program that does use the network: the privacy check must reject it (a check that cannot
   fail proves nothing). */
#include <sys/socket.h>
#include <unistd.h>

int main(void) {
  char b[1];
  if (read(0, b, 1) < 0 || write(1, b, 1) < 0) return 1;
  return socket(AF_INET, SOCK_STREAM, 0) < 0;
}
