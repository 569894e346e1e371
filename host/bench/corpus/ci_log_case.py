"""Writes one case of a corpus of CI logs (`<id>/input.txt` and
`<id>/meta.json`, laid out like `../shared/corpus/cases/`): shared by
make-logchunks.py and make-cidiff-actions.py."""

import json


def write_log_case(out, case_id, raw, source, must_keep, derived):
    """Writes the log `raw` as case `case_id` under `out`, class `log`."""
    case = out / case_id
    case.mkdir(parents=True, exist_ok=True)
    (case / "input.txt").write_text(raw, encoding="utf-8")
    meta = {
        "id": case_id,
        "class": "log",
        "tool": "Bash",
        "command": None,
        "source": source,
        "bytes": len(raw.encode("utf-8")),
        "must_keep": must_keep,
        "how_must_keep_was_derived": derived,
    }
    (case / "meta.json").write_text(json.dumps(meta, indent=1))
