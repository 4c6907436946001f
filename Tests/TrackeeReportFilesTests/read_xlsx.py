"""Reads a workbook with openpyxl, as an independent reader, and prints its
cells as JSON for ReportFilesTests: {sheet: {"B2": cell}} in sheet order
(under "sheets"), every non-empty cell as one of
  {"text": s} {"bool": b} {"number": x}
  {"seconds": n}  a duration (an Excel time value shown [h]:mm), whole seconds
  {"cents": n}    an amount (a number shown with two decimals), whole cents
  {"date": "2026-11-23"} or {"date": "2026-11-23T09:00:00"}
with "formula" (its text), "comment" and "bold" added when the cell has
them; beside the sheets, each one's frozen pane ("frozen") and the widths
set on its columns ("widths": {sheet: {"A": width}}). The
value of a formula cell is the cached one (data_only=True): what a reader
that does not calculate sees.

Usage: /usr/bin/python3 read_xlsx.py FILE.xlsx
"""
import datetime
import json
import sys

import openpyxl


def value(cell):
    v = cell.value
    fmt = cell.number_format or ""
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, datetime.timedelta):
        return {"seconds": round(v.total_seconds())}
    if isinstance(v, datetime.datetime):
        if "h" in fmt.lower():
            return {"date": v.isoformat()}
        return {"date": v.date().isoformat()}
    if isinstance(v, (datetime.date, datetime.time)):
        return {"date": v.isoformat()}
    if isinstance(v, (int, float)):
        if "[h]" in fmt:
            return {"seconds": round(v * 86400)}
        if "0.00" in fmt:
            return {"cents": round(v * 100)}
        return {"number": v}
    return {"text": str(v)}


def main(path):
    formulas = openpyxl.load_workbook(path, data_only=False)
    values = openpyxl.load_workbook(path, data_only=True)
    out = {"sheets": values.sheetnames, "frozen": {}, "widths": {}}
    for ws in values.worksheets:
        fws = formulas[ws.title]
        cells = {}
        for row in ws.iter_rows():
            for cell in row:
                formula = fws[cell.coordinate].value
                has_formula = isinstance(formula, str) and formula.startswith("=")
                if cell.value is None and not has_formula:
                    continue
                c = value(cell) if cell.value is not None else {}
                if has_formula:
                    c["formula"] = formula
                if fws[cell.coordinate].comment is not None:
                    c["comment"] = fws[cell.coordinate].comment.text
                if cell.font is not None and cell.font.b:
                    c["bold"] = True
                cells[cell.coordinate] = c
        out[ws.title] = cells
        out["frozen"][ws.title] = ws.freeze_panes
        widths = {}
        for d in ws.column_dimensions.values():
            if d.customWidth and d.min and d.max:
                for column in range(d.min, d.max + 1):
                    widths[openpyxl.utils.get_column_letter(column)] = round(d.width, 2)
        out["widths"][ws.title] = widths
    print(json.dumps(out, sort_keys=True, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1])
