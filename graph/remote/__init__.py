"""The CLI as a client of a LangGraph server (`langgraph dev` or a deployment).

`client` connects and turns what can go wrong on the wire into one line;
`episodes` starts, resumes and reads episodes through the server's API, with
the same inputs, decisions and outcomes as the local commands.
"""
