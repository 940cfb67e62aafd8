"""`python -m dealer`."""

from dealer.cli import main

main()
