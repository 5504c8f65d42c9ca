"""Building blocks of the self-contained result pages: a document with its
inline style and script, sortable tables, sections, link lists, and "lazy"
tables whose rows travel as one compact JSON blob and are built in the browser
when opened.

Every page (a track's index.html; a single submission's detailed results) is
composed from these, so there is one renderer.  Every text that reaches the
page goes through ``esc`` (run names, query ids and file names are user data);
the page loads nothing: its Content-Security-Policy forbids any request.
"""
from __future__ import annotations

import json
import math
import numbers
import sys
import urllib.parse
from collections import namedtuple

#: Nothing is fetched: no network, no other file; only inline style and script.
CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
       "img-src data:; base-uri 'none'; form-action 'none'")

DIGITS = 4  # as the text reports


def esc(text) -> str:
    """Text as HTML (element content or a double-quoted attribute): what
    ``html.escape(text, quote=True)`` gives, without importing html (whose
    table of entities costs a leaderboard's scoring program more than its page)."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") \
        .replace('"', "&quot;").replace("'", "&#x27;")


def breakable(text) -> str:
    """``text`` as HTML that may break after ``_ - . / :`` (<wbr>): run names and
    column titles such as abstract_label_only_precision, so that a table fits
    the window."""
    out = esc(text)
    for char in "_-./:":
        out = out.replace(char, char + "<wbr>")
    return out


def is_number(value) -> bool:
    """A Python or numpy number (not a truth value)."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        return False
    # A value cannot be a numpy truth value unless numpy is loaded (importing it
    # here would be most of a small page's time).
    numpy = sys.modules.get("numpy")
    return numpy is None or not isinstance(value, numpy.bool_)


def fmt(value, digits: int = DIGITS) -> str:
    """A number as the reports show it (``digits`` decimals; integers whole);
    NaN and None as nothing; anything else as its text."""
    if value is None:
        return ""
    if not is_number(value):
        return str(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    return "" if math.isnan(value) else f"{float(value):.{digits}f}"


# Named tuples, not dataclasses: importing dataclasses (and inspect) would
# cost a leaderboard's scoring program more than its page takes to build.

#: A table cell: its HTML (already escaped), the value it sorts by (a number,
#: NaN/None sorting last; None: the text), a CSS class and a tooltip.
Cell = namedtuple("Cell", "html sort_value css_class title", defaults=(None, "", ""))

#: A table's column: its title, whether it holds numbers, a tooltip.
Column = namedtuple("Column", "title numeric tip", defaults=(True, ""))


def cell(value, digits: int = DIGITS) -> Cell:
    """A plain value as a cell: numbers formatted and sorted as numbers."""
    if is_number(value):
        return Cell(esc(fmt(value, digits)), float(value))
    return Cell(esc("" if value is None else value))


def _sort_attribute(value) -> str:
    if value is None:
        return ""
    number = float(value)
    return ' data-v=""' if math.isnan(number) else f' data-v="{number!r}"'


def table(columns, rows, table_id: str = "", sortable: bool = True, css_class: str = "") -> str:
    """A table; ``rows`` hold Cells or plain values.  Sortable tables sort by a
    header's column when it is clicked (again: the other way), blanks last.
    Titles and texts break over lines where the window is too narrow for the
    table (numbers do not), so that the page does not scroll sideways."""
    classes = " ".join(c for c in ("sortable" if sortable else "", css_class) if c)
    id_attribute = f' id="{esc(table_id)}"' if table_id else ""
    class_attribute = f' class="{esc(classes)}"' if classes else ""
    out = [f"<table{id_attribute}{class_attribute}><thead><tr>"]
    for column in columns:
        kind = "n" if column.numeric else "s"
        tip = f' title="{esc(column.tip)}"' if column.tip else ""
        css = "" if column.numeric else ' class="text"'
        out.append(f'<th data-kind="{kind}"{css}{tip}>{breakable(column.title)}</th>')
    out.append("</tr></thead><tbody>")
    for row in rows:
        out.append("<tr>")
        for column, value in zip(columns, row):
            c = value if isinstance(value, Cell) else cell(value)
            classes = " ".join(k for k in (c.css_class, "" if column.numeric else "text") if k)
            css = f' class="{esc(classes)}"' if classes else ""
            title = f' title="{esc(c.title)}"' if c.title else ""
            out.append(f"<td{css}{title}{_sort_attribute(c.sort_value)}>{c.html}</td>")
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def section(section_id: str, heading: str, body: str, level: int = 2) -> str:
    return (f'<section id="{esc(section_id)}"><h{level}>{esc(heading)}</h{level}>'
            f"{body}</section>")


#: A definition longer than this is folded to its start (a track's invocation
#: names every run file: 100 runs filled the first screens before the leaderboard).
FOLDED_AFTER = 300


def definitions(pairs) -> str:
    """(term, text) pairs as a definition list; texts shown as code, a long
    one folded to its start (``FOLDED_AFTER``), whole when opened."""
    items = []
    for term, text in pairs:
        text = str(text)
        if len(text) > FOLDED_AFTER:
            shown = (f"<details><summary><code>{esc(text[:FOLDED_AFTER // 2])}</code> … "
                     f"({len(text):,} characters)</summary><code>{esc(text)}</code></details>")
        else:
            shown = f"<code>{esc(text)}</code>"
        items.append(f"<dt>{esc(term)}</dt><dd>{shown}</dd>")
    return f'<dl class="about">{"".join(items)}</dl>'


def links(paths) -> str:
    """Links to files given relative to the page (each path percent-encoded)."""
    items = "".join(f'<li><a href="{esc(urllib.parse.quote(str(path)))}">{esc(path)}</a></li>'
                    for path in paths)
    return f'<ul class="files">{items}</ul>'


def json_script(element_id: str, data) -> str:
    """Data for the page's script, as JSON that cannot end its script element."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="{esc(element_id)}">{text}</script>'


def encode_column(values, digits: int | None) -> str:
    """A column of a lazy table as one string: numbers as integers scaled by
    10**digits (digits None: the values are text), blanks for missing values,
    separated by commas (text values are percent-encoded)."""
    if digits is None:
        return ",".join("" if v is None else urllib.parse.quote(str(v), safe="")
                        for v in values)
    scale = 10 ** digits
    if isinstance(values, (list, tuple)) and set(map(type, values)) == {float} \
            and not any(map(math.isnan, values)):
        # The common column, Python floats and none missing (a page of 10,000
        # claims), each distinct value encoded once: the same text (round() of
        # a float is already an int; 0.0 and -0.0 both give "0").
        times = float(scale).__mul__
        text_of = {value: str(round(times(value))) for value in set(values)}
        return ",".join(map(text_of.__getitem__, values))
    return ",".join("" if v is None or v != v else str(int(round(float(v) * scale)))
                    for v in values)


def lazy_tables(family_id: str, label_title: str, labels, columns, tables: dict,
                sort_column: int, descending: bool = False) -> str:
    """A family of tables that share their row labels and columns, built in
    the browser when opened (``lazy_table`` places one).  ``columns``:
    (title, digits) pairs (digits None for text); ``tables``: key -> one
    sequence of values per column, aligned with ``labels``, None for missing;
    a row missing in every column is left out.  Rows start sorted by
    ``sort_column`` (a column index; blanks last)."""
    data = {
        "labelTitle": label_title,
        "labels": [str(label) for label in labels],
        "columns": [{"title": title, "digits": digits} for title, digits in columns],
        "sort": sort_column,
        "descending": descending,
        "tables": {key: [encode_column(values, digits)
                         for values, (_title, digits) in zip(table_columns, columns)]
                   for key, table_columns in tables.items()},
    }
    return json_script("lazy-" + family_id, data)


def lazy_table(family_id: str, key: str, summary: str) -> str:
    """Where a lazy table appears: a closed <details> that builds it on opening."""
    return (f'<details class="lazy" data-family="{esc(family_id)}" data-key="{esc(key)}">'
            f"<summary>{esc(summary)}</summary></details>")


def document(title: str, body: str, script: str = "") -> str:
    """A complete page: inline style, the shared script, and ``script`` (more
    inline JavaScript, run after the page is parsed)."""
    return ("<!DOCTYPE html>\n"
            '<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">'
            '<meta name="referrer" content="no-referrer">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)}</title><style>{STYLE}</style></head>"
            f"<body><h1>{esc(title)}</h1>{body}"
            f"<script>{SCRIPT}{script}</script></body></html>\n")


STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222;max-width:1400px}
h1{font-size:1.4em}h2{font-size:1.2em;margin-top:1.6em}h3{font-size:1.05em}
table{border-collapse:collapse;margin:.5em 0}
th,td{padding:2px 6px;border-bottom:1px solid #e4e4e4;text-align:right;white-space:nowrap}
th{background:#f4f4f4;position:sticky;top:0;white-space:normal;overflow-wrap:break-word;
  vertical-align:bottom}
td.text{white-space:normal;overflow-wrap:anywhere;min-width:6em}
td.score{white-space:normal}td.score .ci{white-space:nowrap}
h1,h2,h3,summary,li{overflow-wrap:anywhere}
td:first-child,th:first-child{text-align:left}
table.sortable th{cursor:pointer;user-select:none}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
td.text,th.text{text-align:left}
.ci{color:#777;font-size:.9em}
.tied{color:#d95f02}
.errors{color:#b00;font-weight:bold}
.plot svg{max-width:100%;height:auto}
.scroll{overflow:auto;max-height:80vh}
dl.about dt{font-weight:bold}dl.about dd{margin:0 0 .5em 1em;word-break:break-all}
ul.files{columns:3;padding-left:1.2em}
details.lazy{margin:.5em 0}details.lazy summary{cursor:pointer}
table.heat td{min-width:1.6em;text-align:center;font-size:.8em;padding:1px 3px;border:1px solid #fff}
table.heat th{font-size:.8em;font-weight:normal}
table.per-hop th{font-size:.85em}
.p0{background:#08306b;color:#fff}.p1{background:#2171b5;color:#fff}.p2{background:#6baed6}
.p3{background:#c6dbef}.p4{background:#f7fbff}.self{background:#ddd}
.legend span{display:inline-block;padding:0 .6em;margin-right:.3em}
"""

# The shared script: sortable tables and lazy tables.  Run names and other
# data reach the page only through textContent, never as HTML.
SCRIPT = r"""
"use strict";
function sortValue(td){var v=td.getAttribute("data-v");
  if(v===null)return td.textContent;return v===""?null:parseFloat(v);}
function sortRows(table,index,descending){
  var th=table.tHead.rows[0].cells[index],numeric=th.getAttribute("data-kind")==="n";
  var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
  var keyed=rows.map(function(r,i){var v=sortValue(r.cells[index]);
    if(numeric&&typeof v==="string"){v=v===""?null:parseFloat(v);if(v!==v)v=null;}
    if(!numeric&&v===null)v="";return [v,i,r];});
  keyed.sort(function(a,b){
    if(a[0]===null||b[0]===null){if(a[0]===b[0])return a[1]-b[1];return a[0]===null?1:-1;}
    var c=numeric?a[0]-b[0]:(a[0]<b[0]?-1:a[0]>b[0]?1:0);
    if(descending)c=-c;return c||a[1]-b[1];});
  var fragment=document.createDocumentFragment();
  keyed.forEach(function(k){fragment.appendChild(k[2]);});body.appendChild(fragment);
  Array.prototype.forEach.call(table.tHead.rows[0].cells,function(c){c.removeAttribute("aria-sort");});
  th.setAttribute("aria-sort",descending?"descending":"ascending");}
document.addEventListener("click",function(event){
  var th=event.target.closest("table.sortable thead th");if(!th)return;
  var again=th.getAttribute("aria-sort")==="ascending";
  sortRows(th.closest("table"),th.cellIndex,again);});
function breakable(element,text){var part="";
  for(var i=0;i<text.length;i++){part+=text[i];
    if("_-./:".indexOf(text[i])>=0){element.appendChild(document.createTextNode(part));
      element.appendChild(document.createElement("wbr"));part="";}}
  if(part)element.appendChild(document.createTextNode(part));}
function lazyFamily(id){var element=document.getElementById("lazy-"+id);
  if(!element.parsed)element.parsed=JSON.parse(element.textContent);return element.parsed;}
function buildLazy(details){
  var family=lazyFamily(details.getAttribute("data-family"));
  var columns=family.tables[details.getAttribute("data-key")]||[];
  var values=columns.map(function(text,c){var d=family.columns[c].digits;
    return text.split(",").map(function(v){if(v==="")return null;
      return d===null?decodeURIComponent(v):parseInt(v,10)/Math.pow(10,d);});});
  var table=document.createElement("table");table.className="sortable";
  var head=table.createTHead().insertRow();
  var th=document.createElement("th");th.textContent=family.labelTitle;
  th.setAttribute("data-kind","s");head.appendChild(th);
  family.columns.forEach(function(column){th=document.createElement("th");
    breakable(th,column.title);th.setAttribute("data-kind",column.digits===null?"s":"n");
    head.appendChild(th);});
  var body=table.createTBody();
  family.labels.forEach(function(label,r){
    if(!values.some(function(column){return column[r]!==null&&column[r]!==undefined;}))return;
    var row=body.insertRow();row.insertCell().textContent=label;
    values.forEach(function(column,c){var td=row.insertCell(),v=column[r];
      var d=family.columns[c].digits;
      if(d===null){td.textContent=v===null?"":v;td.className="text";}
      else{td.textContent=v===null?"":v.toFixed(d);td.setAttribute("data-v",v===null?"":String(v));}});});
  var wrap=document.createElement("div");wrap.className="scroll";wrap.appendChild(table);
  details.appendChild(wrap);
  sortRows(table,family.sort+1,family.descending);}
document.addEventListener("toggle",function(event){var d=event.target;
  if(d.classList&&d.classList.contains("lazy")&&d.open&&!d.built){d.built=true;buildLazy(d);}},true);
"""
