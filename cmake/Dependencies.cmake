# Every dependency comes from a Debian package; a missing one stops the build with the package name.
find_package(PkgConfig)
if(NOT PkgConfig_FOUND)
  message(FATAL_ERROR "pkg-config not found: apt-get install pkg-config (or run scripts/setup.sh)")
endif()

pkg_check_modules(RE2 IMPORTED_TARGET re2)
if(NOT RE2_FOUND)
  message(FATAL_ERROR "RE2 not found: apt-get install libre2-dev (or run scripts/setup.sh)")
endif()

# Debian's re2.pc says 0.0.0; the package version is the release date RE2 goes by.
execute_process(COMMAND dpkg-query -W -f=${Version} libre2-dev OUTPUT_VARIABLE RE2_PKG_VERSION
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(RE2_PKG_VERSION MATCHES "^([0-9]+)")
  set(RE2_VERSION "${CMAKE_MATCH_1}")
endif()

find_package(nlohmann_json 3 QUIET)
if(NOT nlohmann_json_FOUND)
  message(FATAL_ERROR "nlohmann/json not found: apt-get install nlohmann-json3-dev (or run scripts/setup.sh)")
endif()

find_package(yaml-cpp QUIET)
if(NOT yaml-cpp_FOUND)
  message(FATAL_ERROR "yaml-cpp not found: apt-get install libyaml-cpp-dev (or run scripts/setup.sh)")
endif()

find_package(Boost 1.74 QUIET COMPONENTS filesystem)
if(NOT Boost_FOUND)
  message(FATAL_ERROR "Boost.Process/Boost.Filesystem not found: apt-get install libboost-dev libboost-filesystem-dev (or run scripts/setup.sh)")
endif()

find_path(TOMLPP_INCLUDE_DIR toml++/toml.h)
if(NOT TOMLPP_INCLUDE_DIR)
  message(FATAL_ERROR "toml++ not found: apt-get install libtomlplusplus-dev (or run scripts/setup.sh)")
endif()

if(DENPEX_TESTS)
  find_package(doctest QUIET)
  if(NOT doctest_FOUND)
    message(FATAL_ERROR "doctest not found: apt-get install doctest-dev (or run scripts/setup.sh), or configure with -DDENPEX_TESTS=OFF")
  endif()
endif()
