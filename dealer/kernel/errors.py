"""The domain exception family: every error a person can cause or meet at the table.

The CLI turns any `DealerError` into one `Error: …` line and exit status 1.
"""


class DealerError(Exception):
    """Base of every domain error; its message is shown to the person as it is."""


class CardError(DealerError):
    """Typed cards that cannot be ruled on: unknown, duplicate, too many jokers, wrong count."""


class ConfigError(DealerError):
    """A YAML document (profile, House Way, pay table) or a setting that is not valid."""


class HouseWayError(DealerError):
    """A House Way document that cannot set a hand."""


class PayTableError(ConfigError):
    """A pay table that is unknown or not valid."""


class AuditError(DealerError):
    """The audit log could not be written or read."""


class VerificationError(AuditError):
    """The audit log does not verify."""


class AccessError(DealerError):
    """A user who may not do what was asked (wrong role or wrong PIN)."""


class MoveError(DealerError):
    """A move a game's rules do not allow now (a swap right after a swap, a card not held)."""
