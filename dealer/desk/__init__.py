"""The desk: what a dealer or a supervisor does, once each.

Each public function here is one thing a person at the table does (rule a hand, settle a seat,
play a round, take a live-session step, open or resolve a dispute, override, void, approve a
file, adjust a meter, export, verify). The CLI parses its arguments, calls one of them and
renders what comes back; the games below are pure and the audit log is reached only from here.
"""
