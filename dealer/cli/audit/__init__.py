"""`dealer audit …`: read, search, export and verify the record; checkpoints at shift close;
disputes, overrides and voids; users and meters. Each command parses its arguments, calls one
desk function and renders what it returns; supervisor actions take `--supervisor ID` and a PIN
(`--pin`, env `DEALER_PIN`, or asked with hidden input), and a dispute's second reviewer their
own (`--reviewer ID`, `--reviewer-pin`, env `DEALER_REVIEWER_PIN`, or asked); a checkpoint is
taken by the desk's user (`--user`), a supervisor or an auditor, with their `--pin`.

The group and its reading commands are in `log`, the supervisor's decisions in `decisions`
(listed after them), and the `dispute`, `user` and `meter` groups in their own modules."""

from dealer.cli.audit import decisions  # noqa: F401  (adds the supervisor's decisions)
from dealer.cli.audit.disputes import app as disputes
from dealer.cli.audit.log import app
from dealer.cli.audit.meters import app as meters
from dealer.cli.audit.users import app as users

app.add_typer(disputes, name="dispute")
app.add_typer(users, name="user")
app.add_typer(meters, name="meter")

__all__ = ["app"]
