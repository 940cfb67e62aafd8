"""`python -m dealer`."""

from dealer.cli.app import main

main()
