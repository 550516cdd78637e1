"""`python -m graph.cli`: the same as the `react-agent` command."""

from graph.cli import entry

entry()
