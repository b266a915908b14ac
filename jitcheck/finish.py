"""The end of a session: build the report, compare it with the baseline, write every file.

This module imports every format (the views import only the model, `jitcheck.report`), so
nothing imports it but the plugin, which does so at the end of a session that wants a report.
"""

from __future__ import annotations

from jitcheck.baseline import compare_reports, configuration_warnings
from jitcheck.html import render_html
from jitcheck.markdown import markdown
from jitcheck.report import build_report, machine_info
from jitcheck.report_json import load_report, write_json, write_text
from jitcheck.settings import SessionState


def baseline_warnings(path: str) -> list[str]:
    """How the baseline's machine and configuration differ from this run's (for the header
    at the start of the session); nothing if the baseline cannot be read (the end says so)."""
    try:
        baseline = load_report(path)
    except (OSError, ValueError):
        return []
    return configuration_warnings(baseline.get("machine", {}), machine_info())


def finish_session(state: SessionState) -> bool:
    """Build the report, compare it with the baseline, write the requested files; True if
    the session must fail (a regression beyond the threshold, a baseline timing missing now,
    or an unreadable baseline)."""
    run = state.run
    report = build_report(state.results.values(), run)
    state.report = report
    if run.baseline:
        try:
            baseline = load_report(run.baseline)
        except (OSError, ValueError) as exc:
            state.baseline_error = f"cannot read the baseline {run.baseline}: {exc}"
        else:
            state.comparison = compare_reports(
                baseline, report, run.max_regression, run.allow_missing, run.regression_stat
            )
            report["baseline"] = state.comparison.as_dict(run.baseline)
    if run.report_json:
        write_json(report, run.report_json)
    if run.report_md:
        write_text(run.report_md, markdown(report))
    if run.report_html:
        write_text(run.report_html, render_html(report))
    return bool(state.baseline_error) or bool(state.comparison and state.comparison.failed)
