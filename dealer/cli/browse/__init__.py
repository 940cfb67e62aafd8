"""`dealer audit browse`: the audit log as a read-only web page, served by Datasette with our
plugin (`plugin.py`: the supervisor's pages, the chain banner, the read-only guard; `pages.py`:
records rendered for people; `server.py`: the server). Loaded by that command alone."""
