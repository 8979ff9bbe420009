;;; emacs_test.el --- editors/emacs/denpex.el in a real Emacs 28 + eglot, headless  -*- lexical-binding: t; -*-
;; Run by tests/editors/run.sh: emacs --batch -Q -l emacs_test.el, with DENPEX_BIN, DENPEX_EL
;; (editors/emacs) and DENPEX_WORK (a temp dir with copies of train.py, model.py and train.log).
;; Exit code 0 only when every check passed.

(require 'package)
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(require 'cl-lib)
(require 'subr-x)

(defvar dt-failures 0)
(defvar dt-work (file-name-as-directory (getenv "DENPEX_WORK")))

(defun dt-log (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n") #'external-debugging-output))

(defun dt-check (cond what &optional detail)
  (if cond
      (dt-log "ok   %s" what)
    (setq dt-failures (1+ dt-failures))
    (dt-log "FAIL %s%s" what (if detail (format ": %s" detail) "")))
  cond)

(defmacro dt-step (name &rest body)
  (declare (indent 1))
  `(let ((t0 (float-time)))
     (condition-case err
         (progn ,@body)
       (error (setq dt-failures (1+ dt-failures))
              (dt-log "FAIL %s: %S" ,name err)))
     (dt-log "---- %s (%d ms)" ,name (round (* 1000 (- (float-time) t0))))))

(defun dt-wait (seconds pred)
  "Wait up to SECONDS for PRED, processing server output; return PRED's value."
  (let ((deadline (+ (float-time) seconds)) (v nil))
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    v))

(defun dt-diag-summary (diags)
  (mapconcat #'identity
             (sort (mapcar (lambda (d)
                             (format "%d:%s" (line-number-at-pos (flymake-diagnostic-beg d))
                                     (let ((text (flymake-diagnostic-text d)))
                                       (if (string-match "DPX[0-9]+" text) (match-string 0 text) "?"))))
                           diags)
                   #'string<)
             " "))

(setq denpex-program (getenv "DENPEX_BIN"))
(add-to-list 'load-path (getenv "DENPEX_EL"))
(dt-check (require 'denpex nil t) "(require 'denpex)")
(setq denpex-program (getenv "DENPEX_BIN"))
(setq eglot-sync-connect 10 eglot-connect-timeout 30 eglot-autoreconnect nil)
(setq make-backup-files nil create-lockfiles nil auto-save-default nil)
(setq default-directory dt-work)
;; eglot finds the project through project.el: make the temp dir a (transient) project root.
(defun dt-project (dir) (and (string-prefix-p dt-work (file-name-as-directory (expand-file-name dir)))
                             (cons 'transient dt-work)))
(add-hook 'project-find-functions #'dt-project)

(dt-step "denpex-diagnose-region without a server (the binary)"
  (with-temp-buffer
    (insert-file-contents (concat dt-work "train.log"))
    (denpex-diagnose-region (point-min) (point-max)))
  (with-current-buffer denpex-report-buffer
    (dt-check (string-match-p "Initiating | rank 5 on gpu-node-03" (buffer-string))
              "with no server running the report still names rank 5"
              (substring (buffer-string) 0 (min 300 (buffer-size)))))
  (kill-buffer denpex-report-buffer))

(defvar dt-py nil)
(dt-step "python diagnostics in flymake"
  (setq dt-py (find-file-noselect (concat dt-work "train.py")))
  (with-current-buffer dt-py
    (dt-check (eq major-mode 'python-mode) "train.py opens in python-mode" major-mode)
    (apply #'eglot (eglot--guess-contact))
    (dt-check (cl-typep (eglot-current-server) 'denpex-eglot-server) "eglot runs denpex lsp for python-mode"
              (eglot-current-server))
    (dt-check (bound-and-true-p flymake-mode) "eglot turned on flymake-mode")
    ;; Flymake defers its first check to the next command loop, which batch mode never runs.
    (flymake-start)
    (dt-check (dt-wait 20 (lambda () (>= (length (flymake-diagnostics)) 2)))
              "two flymake diagnostics within 20 s"
              (format "%s %S" (dt-diag-summary (flymake-diagnostics))
                      (with-current-buffer (jsonrpc-events-buffer (eglot-current-server))
                        (buffer-substring-no-properties (max (point-min) (- (point-max) 3000)) (point-max)))))
    (dt-check (equal (dt-diag-summary (flymake-diagnostics)) "6:DPX001 7:DPX002")
              "diagnostics at lines 6 (DPX001) and 7 (DPX002)" (dt-diag-summary (flymake-diagnostics)))))

(dt-step "hover"
  (with-current-buffer dt-py
    (goto-char (point-min)) (forward-line 5) (move-to-column 48)
    (let* ((res (jsonrpc-request (eglot-current-server) :textDocument/hover
                                 (eglot--TextDocumentPositionParams)))
           (contents (plist-get res :contents))
           (text (if (stringp contents) contents (or (plist-get contents :value) (format "%S" contents)))))
      (dt-check (string-match-p "DPX001" text) "hover on line 6 names DPX001" (substring text 0 (min 200 (length text)))))))

(dt-step "code action through eglot-code-actions"
  (with-current-buffer dt-py
    (goto-char (point-min)) (forward-line 6)
    (let* ((beg (line-beginning-position)) (end (line-end-position))
           (picked nil)
           ;; The menu eglot shows: pick the fix of DPX002, as a user would.
           (completing-read-function
            (lambda (_prompt collection &rest _)
              (setq picked (cl-find-if (lambda (c) (string-prefix-p "Fix (unsafe) DPX002" (car c))) collection))
              (car picked)))
           (last-nonmenu-event ?a))
      (eglot-code-actions beg end nil t)
      (dt-check picked "a 'Fix (unsafe) DPX002' action is offered" picked)
      (save-buffer)
      (let ((line7 (save-excursion (goto-char (point-min)) (forward-line 6)
                                   (buffer-substring-no-properties (line-beginning-position) (line-end-position)))))
        (dt-check (equal line7 "    out = checkpoint(model.head, hidden, use_reentrant=False)")
                  "line 7 after the fix" line7))
      (let ((disk (with-temp-buffer (insert-file-contents (concat dt-work "train.py")) (buffer-string))))
        (dt-check (string-match-p "out = checkpoint(model.head, hidden, use_reentrant=False)\n" disk)
                  "the fix is on disk after save-buffer")
        (dt-check (string-match-p "hidden = checkpoint(model.block, batch, use_reentrant=True)\n" disk)
                  "line 6 unchanged"))
      (dt-check (dt-wait 20 (lambda () (equal (dt-diag-summary (flymake-diagnostics)) "6:DPX001")))
                "after the fix only DPX001 remains" (dt-diag-summary (flymake-diagnostics))))))

(defvar dt-log-buf nil)
(dt-step "log diagnostics"
  (setq dt-log-buf (find-file-noselect (concat dt-work "train.log")))
  (with-current-buffer dt-log-buf
    (dt-check (eq major-mode 'denpex-log-mode) "train.log opens in denpex-log-mode" major-mode)
    ;; Logs get a server of their own (eglot 1.9 has one languageId per server).
    (unless (eglot-current-server) (apply #'eglot (eglot--guess-contact)))
    (dt-check (cl-typep (eglot-current-server) 'denpex-eglot-server) "a denpex server manages train.log")
    (flymake-start)
    (dt-check (equal (eglot--language-id (eglot-current-server)) "log") "languageId is log"
              (eglot--language-id (eglot-current-server)))
    (dt-check (dt-wait 20 (lambda () (cl-some (lambda (d) (memq (flymake-diagnostic-type d) '(:error eglot-error)))
                                              (flymake-diagnostics))))
              "an error diagnostic in train.log within 20 s")
    (let ((errs (cl-remove-if-not (lambda (d) (memq (flymake-diagnostic-type d) '(:error eglot-error))) (flymake-diagnostics))))
      (dt-check (= (length errs) 1) "exactly one error" (length errs))
      (when errs
        (dt-check (= (line-number-at-pos (flymake-diagnostic-beg (car errs))) 29) "the error is on line 29"
                  (line-number-at-pos (flymake-diagnostic-beg (car errs))))
        (dt-check (string-match-p "rank 5" (flymake-diagnostic-text (car errs))) "it names rank 5"
                  (flymake-diagnostic-text (car errs)))))))

(dt-step "denpex-diagnose-region"
  (with-current-buffer dt-log-buf
    (let ((beg (save-excursion (goto-char (point-min)) (forward-line 16) (point))))
      (denpex-diagnose-region beg (point-max))))
  (let ((buf (get-buffer denpex-report-buffer)))
    (dt-check buf "the report buffer exists")
    (with-current-buffer buf
      (let ((text (buffer-string)))
        (dt-check (eq major-mode 'denpex-report-mode) "it is in denpex-report-mode" major-mode)
        (dt-check (string-match-p "Initiating | rank 5 on gpu-node-03" text) "the report names the initiating rank 5"
                  (substring text 0 (min 300 (length text))))
        (dt-check (string-match-p "3\\.82 GiB" text) "the report has the evidence")
        (dt-check (and (stringp denpex--verify-command) (> (length denpex--verify-command) 0))
                  "the report has a verify command")
        (denpex-copy-verify-command)
        (dt-check (equal (current-kill 0) denpex--verify-command) "y copies the verify command"))))
  ;; A region before the failure names no initiating rank.
  (with-current-buffer dt-log-buf
    (denpex-diagnose-region (point-min) (save-excursion (goto-char (point-min)) (forward-line 16) (point))))
  (with-current-buffer denpex-report-buffer
    (dt-check (not (string-match-p "rank 5 on" (buffer-string))) "lines 1-16 name no initiating rank")))

(dt-step "Explain code action on the initiating line"
  (with-current-buffer dt-log-buf
    (goto-char (point-min)) (forward-line 28)
    (let* ((titles nil)
           (completing-read-function
            (lambda (_prompt collection &rest _)
              (setq titles (mapcar #'car collection))
              (car (cl-find-if (lambda (c) (string-prefix-p "Explain cuda-oom" (car c))) collection))))
           (last-nonmenu-event ?a))
      (when (get-buffer denpex-report-buffer) (kill-buffer denpex-report-buffer))
      (eglot-code-actions (line-beginning-position) (line-end-position) nil t)
      (dt-check (member "Explain cuda-oom" titles) "line 29 offers 'Explain cuda-oom'" titles)
      (dt-check (member "Copy verify command (cuda-oom)" titles) "and 'Copy verify command (cuda-oom)'" titles)
      (dt-check (and (get-buffer denpex-report-buffer)
                     (with-current-buffer denpex-report-buffer
                       (string-match-p "CUDA out of memory" (buffer-string))))
                "choosing it shows the cuda-oom page"))))

(dt-step "denpex-explain"
  (dt-check (member "cuda-oom" (denpex--ids)) "ids offer cuda-oom")
  (dt-check (member "DPX001" (denpex--ids)) "ids offer DPX001")
  (denpex-explain "cuda-oom")
  (with-current-buffer denpex-report-buffer
    (dt-check (string-match-p "CUDA out of memory" (buffer-string)) "explain shows the cuda-oom page")))

(dt-step "options reach the server"
  ;; denpex-ignore is sent as initializationOptions: reconnect the Python server, open a fresh copy.
  (setq denpex-ignore '("DPX002"))
  (with-current-buffer dt-py (eglot-reconnect (eglot-current-server)))
  (with-current-buffer (find-file-noselect (concat dt-work "options.py"))
    (unless (eglot-current-server) (apply #'eglot (eglot--guess-contact)))
    (flymake-start)
    (dt-wait 20 (lambda () (>= (length (flymake-diagnostics)) 1)))
    (dt-wait 0.3 #'ignore)
    (dt-check (equal (dt-diag-summary (flymake-diagnostics)) "6:DPX001")
              "denpex-ignore '(\"DPX002\"): only DPX001 on line 6" (dt-diag-summary (flymake-diagnostics)))))

(dt-log (if (= dt-failures 0) "emacs: all checks passed" (format "emacs: %d check(s) failed" dt-failures)))
(ignore-errors (eglot-shutdown-all))
(kill-emacs (if (= dt-failures 0) 0 1))
