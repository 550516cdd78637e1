"""The graphs `langgraph.json` names, compiled when the server imports this module.

The server looks its graphs up in the module's namespace, so they are plain
attributes here; `graph.agent` itself compiles nothing at import.
"""

from __future__ import annotations

from graph.agent import server_agent

wikipedia_agent = server_agent("wikipedia")
library_agent = server_agent("library")
