"""The LangGraph server's side: the graphs Studio and the API load, their checkpointer,
guarded state edits."""
