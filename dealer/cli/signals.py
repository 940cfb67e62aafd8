"""The two signals that stop a command, SIGINT (Ctrl-C) and SIGTERM, as the console script
takes them (`dealer.cli.main`): each ends the command through the error boundary, with
`Error: interrupted` (130) or `Error: terminated` (143)."""

import signal


class Terminated(BaseException):
    """SIGTERM while a command ran. A BaseException, not a KeyboardInterrupt: it passes the
    framework and a live session's Ctrl-C handling untouched, running every clean-up on its
    way to the error boundary."""


def _interrupted(signum: int, frame: object) -> None:
    """SIGINT (Ctrl-C): stop the command, through the error boundary. One is enough: later ones
    are not heard, so that none cuts the clean-up short (a live session at a terminal, where
    Ctrl-C only drops the line being typed, listens again)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM (`kill`, a service manager): stop the command like Ctrl-C, exit status 143;
    neither signal is heard again, so that none cuts the clean-up short."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise Terminated


def take() -> None:
    """Take both signals. SIGINT is taken even where the parent left it ignored (a job a script
    started in the background), where Python installs no handler."""
    signal.signal(signal.SIGINT, _interrupted)
    signal.signal(signal.SIGTERM, _terminated)


def ignore() -> None:
    """Ignore both signals: the command has finished (what Python ignores it does not give back
    to the system at shutdown)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
