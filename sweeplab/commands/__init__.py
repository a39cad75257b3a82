"""Sub-commands of the ``sweeplab`` command line, one module each."""
