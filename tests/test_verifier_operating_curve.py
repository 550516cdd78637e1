"""benchmarks/verifier_operating_curve.py refuses bad arguments in one line, before any
training runs."""

from __future__ import annotations

import pytest
from verifier_utils import benchmark_script


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--targets", "x"], "expected shares like 0.9,0.93"),
        (["--targets", "0.9,1.5"], "each share must lie between 0 and 1"),
        (["--plot", "."], "is a directory"),
    ],
)
def test_bad_arguments_are_one_line_before_any_work(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = benchmark_script("verifier_operating_curve")
    with pytest.raises(SystemExit) as stopped:
        script.main(args)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_targets_are_read_as_shares() -> None:
    assert benchmark_script("verifier_operating_curve")._targets("0.9,0.93") == [0.9, 0.93]
