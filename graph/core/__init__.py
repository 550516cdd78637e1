"""The agent's core: its state, its nodes and what they decide (proposals, review,
approvals, budgets)."""
