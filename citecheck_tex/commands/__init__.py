"""The commands: one module per ``citecheck-tex`` subcommand, each a typed ``run(...)``
returning a result and a thin ``cli(argv)`` returning the exit status.

=============  ==========================================  ===========================
command        module                                      ``run`` returns
=============  ==========================================  ===========================
(check)        :mod:`citecheck_tex.commands.check`         :class:`~.check.CheckRun`
``index``      :mod:`citecheck_tex.commands.index`         the import statistics
``watch``      :mod:`citecheck_tex.commands.watch`         :class:`~.watch.WatchSession`
``gate``       :mod:`citecheck_tex.commands.gate`          :class:`~.gate.GateReport`
``latexmk-rc`` :mod:`citecheck_tex.commands.latexmk`       the latexmkrc text
``ignore``     :mod:`citecheck_tex.commands.ignore`        the written ignore lines
``completion`` :mod:`citecheck_tex.commands.completion`    the completion script
``man``        :mod:`citecheck_tex.commands.man`           the manual page
``batch``      :mod:`citecheck_tex.commands.batch`         ``BatchRun`` (batch/)
=============  ==========================================  ===========================

The options every checking command shares (and the exit codes) live in
:mod:`citecheck_tex.commands.options`; :mod:`citecheck_tex.cli` only dispatches.
Only ``cli.py`` calls ``sys.exit``.
"""
