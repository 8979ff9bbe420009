;;; denpex.el --- Denpex (PyTorch failure diagnosis) through eglot  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1") (eglot "1.9"))
;; Keywords: languages, tools
;; URL: https://github.com/denpex/denpex

;;; Commentary:

;; A thin client over `denpex lsp': everything smart (diagnostics, hover, quick fixes, the log
;; diagnosis) lives in the server.  This package
;;  - registers `denpex lsp' with eglot for `python-mode', `python-ts-mode' and `denpex-log-mode';
;;  - defines `denpex-log-mode' for training logs (*.log, *.out, *.err, slurm-*.out);
;;  - adds `denpex-diagnose-region' (the report of a region or buffer in a buffer) and
;;    `denpex-explain' (an encyclopedia entry or rule, with completion of ids).
;;
;;   (require 'denpex)
;;   (add-hook 'python-mode-hook #'eglot-ensure)
;;   (add-hook 'denpex-log-mode-hook #'eglot-ensure)

;;; Code:

(require 'eglot)
(require 'jsonrpc)
(require 'subr-x)

(defgroup denpex nil
  "Diagnose PyTorch training failures with `denpex lsp'."
  :group 'tools
  :prefix "denpex-")

(defcustom denpex-program "denpex"
  "The denpex binary."
  :type 'string)

(defcustom denpex-signatures nil
  "Extra encyclopedia directories (the server's `signatureDirs')."
  :type '(repeat directory))

(defcustom denpex-select nil
  "Rule codes or prefixes to enable (replaces pyproject's `select' when non-empty)."
  :type '(repeat string))

(defcustom denpex-ignore nil
  "Rule codes or prefixes to skip (added to pyproject's `ignore')."
  :type '(repeat string))

(defcustom denpex-log-globs '("*.log" "*.out" "*.err")
  "File names the server treats as logs."
  :type '(repeat string))

(defcustom denpex-docs-url ""
  "Base URL for the diagnostics' documentation links (none when empty)."
  :type 'string)

(defcustom denpex-log-file-regexp "\\(?:\\.\\(?:log\\|out\\|err\\)\\|/slurm-[^/]*\\.out\\)\\'"
  "File names opened in `denpex-log-mode' (added to `auto-mode-alist')."
  :type 'regexp)

(defun denpex--settings ()
  "The server's settings (docs/lsp.md, \"Configuration\") as a plist."
  (append
   (when denpex-select `(:select ,(vconcat denpex-select)))
   (when denpex-ignore `(:ignore ,(vconcat denpex-ignore)))
   (when denpex-signatures `(:signatureDirs ,(vconcat (mapcar #'expand-file-name denpex-signatures))))
   (when denpex-log-globs `(:logGlobs ,(vconcat denpex-log-globs)))
   (unless (string-empty-p denpex-docs-url) `(:docsUrl ,denpex-docs-url))))

(defclass denpex-eglot-server (eglot-lsp-server) ()
  "The eglot server class for `denpex lsp' (sends the settings as initializationOptions).")

(cl-defmethod eglot-initialization-options ((_server denpex-eglot-server))
  (or (denpex--settings) eglot--{}))

(cl-defmethod eglot-execute-command ((_server denpex-eglot-server) command _arguments)
  "Run COMMAND on the server; show what the denpex commands return.
`denpex.explain' opens its page, `denpex.copyVerifyCommand' copies it."
  (let ((result (cl-call-next-method)))
    (pcase (format "%s" command)
      ("denpex.explain" (when (stringp result) (denpex--show-report result nil)))
      ("denpex.copyVerifyCommand"
       (when (stringp result)
         (kill-new result)
         (message "denpex: verify command copied: %s" result))))
    result))

(defun denpex--contact (&optional _interactive)
  "The eglot contact for `denpex lsp'."
  (list 'denpex-eglot-server denpex-program "lsp"))

;;;###autoload
(define-derived-mode denpex-log-mode special-mode "Denpex-Log"
  "A read-only mode for training logs; `denpex lsp' diagnoses them through eglot."
  (setq-local truncate-lines t)
  (setq buffer-read-only t))

(put 'denpex-log-mode 'eglot-language-id "log")

;;;###autoload
(add-to-list 'auto-mode-alist (cons denpex-log-file-regexp 'denpex-log-mode))

(defconst denpex--eglot-entries
  (list (cons '(python-mode python-ts-mode) #'denpex--contact)
        ;; A server of its own: eglot 1.9 sends one languageId per server, and logs need "log".
        (cons '((denpex-log-mode :language-id "log")) #'denpex--contact))
  "The `eglot-server-programs' entries of denpex.")

;;;###autoload
(defun denpex-eglot-setup ()
  "Put `denpex lsp' first in `eglot-server-programs' for Python and log buffers."
  (let ((rest (cl-set-difference eglot-server-programs denpex--eglot-entries :test #'equal)))
    (setq eglot-server-programs (append denpex--eglot-entries rest))))

(denpex-eglot-setup)

(defun denpex--server ()
  "The eglot server of this buffer when it is denpex, else nil."
  (let ((s (ignore-errors (eglot-current-server))))
    (and s (cl-typep s 'denpex-eglot-server) s)))

(defun denpex--any-server ()
  "A running denpex server: this buffer's, else any."
  (or (denpex--server)
      (cl-loop for servers being the hash-values of eglot--servers-by-project
               thereis (cl-find-if (lambda (s) (cl-typep s 'denpex-eglot-server)) servers))))

(defvar denpex-report-buffer "*denpex diagnosis*"
  "The name of the report buffer.")

(defvar-local denpex--verify-command nil
  "The verify command of the report in this buffer.")

(defvar denpex-report-mode-map
  (let ((m (make-sparse-keymap)))
    (define-key m (kbd "y") #'denpex-copy-verify-command)
    m)
  "Keys of `denpex-report-mode'.")

(define-derived-mode denpex-report-mode special-mode "Denpex-Report"
  "A Denpex report (Markdown).
\\<denpex-report-mode-map>\\[denpex-copy-verify-command] copies the verify command, q quits."
  (setq-local truncate-lines nil))

(defun denpex-copy-verify-command ()
  "Copy the verify command of the report to the kill ring."
  (interactive)
  (if denpex--verify-command
      (progn (kill-new denpex--verify-command)
             (message "denpex: verify command copied: %s" denpex--verify-command))
    (message "denpex: this report has no verify command")))

(defun denpex--show-report (markdown verify)
  "Show MARKDOWN in the report buffer, with VERIFY for `y'; return the buffer."
  (let ((buf (get-buffer-create denpex-report-buffer)))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (or markdown ""))
        (goto-char (point-min)))
      (denpex-report-mode)
      (setq denpex--verify-command verify))
    (display-buffer buf)
    buf))

(defun denpex--diagnose-cli (text)
  "Run `denpex diagnose' on TEXT (no server running); return (MARKDOWN . nil)."
  (with-temp-buffer
    (insert text)
    (let ((out (generate-new-buffer " *denpex-report*")))
      (unwind-protect
          (progn
            (call-process-region (point-min) (point-max) denpex-program nil out nil
                                 "diagnose" "--format" "markdown")
            (cons (with-current-buffer out (buffer-string)) nil))
        (kill-buffer out)))))

;;;###autoload
(defun denpex-diagnose-region (beg end)
  "Diagnose the region BEG..END (or the whole buffer); show the report.
Uses the running `denpex lsp' (command `denpex.diagnose');
without one, the `denpex' binary."
  (interactive (if (use-region-p) (list (region-beginning) (region-end))
                 (list (point-min) (point-max))))
  (let* ((text (buffer-substring-no-properties beg end))
         (server (denpex--any-server))
         (result (and server
                      (jsonrpc-request server :workspace/executeCommand
                                       `(:command "denpex.diagnose"
                                         :arguments [(:text ,text)])))))
    (if result
        (let* ((diagnoses (plist-get result :diagnoses))
               (first (and (> (length diagnoses) 0) (aref diagnoses 0)))
               (verify (and first (plist-get first :verify))))
          (denpex--show-report (plist-get result :markdown) (and (stringp verify) verify)))
      (let ((r (denpex--diagnose-cli text)))
        (denpex--show-report (car r) (cdr r))))))

(defvar denpex--ids nil "Cached ids for `denpex-explain'.")

(defun denpex--ids ()
  "Encyclopedia ids and rule codes, from the binary."
  (or denpex--ids
      (setq denpex--ids
            (let ((ids nil))
              (ignore-errors
                (dolist (e (json-parse-string
                            (with-output-to-string
                              (with-current-buffer standard-output
                                (call-process denpex-program nil t nil "signatures" "list" "--format" "json")))
                            :object-type 'plist :array-type 'list))
                  (push (plist-get e :id) ids)))
              (ignore-errors
                (let ((rules (json-parse-string
                              (with-output-to-string
                                (with-current-buffer standard-output
                                  (call-process denpex-program nil t nil "check" "--list-rules"
                                                "--output-format" "json")))
                              :object-type 'plist :array-type 'list)))
                  (dolist (r (if (plist-member rules :rules) (plist-get rules :rules) rules))
                    (push (plist-get r :code) ids))))
              (sort (delq nil ids) #'string<)))))

;;;###autoload
(defun denpex-explain (id)
  "Show the encyclopedia entry or rule ID (e.g. cuda-oom, DPX001)."
  (interactive (list (completing-read "Denpex entry or rule: " (denpex--ids) nil nil)))
  (let* ((server (denpex--any-server))
         (page (if server
                   (jsonrpc-request server :workspace/executeCommand
                                    `(:command "denpex.explain" :arguments [(:id ,id)]))
                 (with-output-to-string
                   (with-current-buffer standard-output
                     (call-process denpex-program nil t nil "explain" "--format" "markdown" id)))))
         (verify (and server
                      (ignore-errors
                        (jsonrpc-request server :workspace/executeCommand
                                         `(:command "denpex.copyVerifyCommand" :arguments [(:id ,id)]))))))
    (denpex--show-report page (and (stringp verify) verify))))

(provide 'denpex)
;;; denpex.el ends here
