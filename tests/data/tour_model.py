"""A model file for `--model tests/data/tour_model.py:tour_model`: a long snapshot tour."""

from __future__ import annotations

import os

from graph.testing import ScriptedReActModel, tour_replies


def tour_model() -> ScriptedReActModel:
    """Scripted replies touring `$TOUR_STEPS` (default 200) steps of the snapshot."""
    return ScriptedReActModel(responses=tour_replies(int(os.environ.get("TOUR_STEPS", "200"))))
