"""Full text from GROBID: TEI parsed into named sections and references. No Dagster here.

GROBID's TEI body is a flat list of `<div>`s, each with a `<head>` (numbered `n="3.1"` in
most papers) and `<p>` paragraphs (or `<s>` sentences with `segmentSentences`). Each div
becomes one `Section` whose `name` is one of abstract, introduction, method,
experiments, limitations, conclusion, other, decided from its heading; a heading that
names no known section takes the name of the section it belongs to: a numbered
subsection ("3.1 PaperQA") its parent's ("3 Method"); an unnumbered one ("Participants")
the running section's; an unrecognised top-level section right after the introduction
or related work is `method`. Appendices (headings like "B AUTOGPT IMPLEMENTATION", which
GROBID 0.8 leaves in the body, and `<back><div type="annex">`) are `other`;
acknowledgements are dropped. References are the `<listBibl>` entries as "Authors (year). Title. Venue.".
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from core.records import PaperFullText, Section

TEI = "{http://www.tei-c.org/ns/1.0}"
_WS = re.compile(r"\s+")
_APPENDIX = re.compile(r"^(?:appendix\b|[A-H](?:\.\d+)*\s+[A-Z][A-Z])")  # "B AUTOGPT ...", "G.1 CONTRA..."
_NUM_PREFIX = re.compile(r"^\s*(?:[A-Z]|\d+)(?:\.\d+)*\.?\s+(?=\S)")

# Checked in order: the first rule whose pattern matches the heading wins.
SECTION_RULES: list[tuple[str, re.Pattern]] = [
    ("limitations", re.compile(r"limitation|broader impact|threats to validity|ethic", re.I)),
    ("conclusion", re.compile(r"conclu|future work|future direction|summary|closing remarks|outlook", re.I)),
    ("introduction", re.compile(r"introduc|background|motivation|overview of the problem", re.I)),
    (
        "experiments",
        re.compile(
            r"experiment|evaluation|result|ablation|empirical|analys|benchmark|case stud|"
            r"comparison|performance|findings|discussion",
            re.I,
        ),
    ),
    (
        "method",
        re.compile(
            r"method|approach|model|framework|architecture|algorithm|our system|proposed|"
            r"pretraining objective|training|design|formulation|preliminar|problem (?:setup|definition)",
            re.I,
        ),
    ),
    ("other", re.compile(r"related work|prior work|literature review|acknowledg|appendix|supplement", re.I)),
]


class TEIError(ValueError):
    """The TEI could not be used (malformed XML, or no text at all)."""


def _text(node: ET.Element | None) -> str:
    return _WS.sub(" ", "".join(node.itertext())).strip() if node is not None else ""


def classify_heading(heading: str) -> str | None:
    bare = _NUM_PREFIX.sub("", heading)
    for name, pattern in SECTION_RULES:
        if pattern.search(bare):
            return name
    return None


def _top_number(n: str | None) -> str | None:
    return n.strip().rstrip(".").split(".")[0] if n and n.strip() else None


def _div_text(div: ET.Element) -> str:
    parts = [_text(child) for child in div if child.tag in (f"{TEI}p", f"{TEI}formula", f"{TEI}list")]
    return " ".join(p for p in parts if p)


def format_reference(bibl: ET.Element) -> str:
    analytic, monogr = bibl.find(f"{TEI}analytic"), bibl.find(f"{TEI}monogr")
    title = _text(analytic.find(f"{TEI}title")) if analytic is not None else ""
    venue = _text(monogr.find(f"{TEI}title")) if monogr is not None else ""
    if not title:
        title, venue = venue, ""
    authors = []
    for pers in bibl.iter(f"{TEI}persName"):
        surname = _text(pers.find(f"{TEI}surname"))
        if surname:
            authors.append(surname)
        if len(authors) == 3:
            break
    when = bibl.find(f".//{TEI}imprint/{TEI}date")
    year = (when.get("when") or _text(when))[:4] if when is not None else ""
    who = ", ".join(authors) + (" et al." if len(list(bibl.iter(f"{TEI}persName"))) > 3 else "")
    out = f"{who} ({year}). {title}." if who or year else f"{title}."
    if venue:
        out += f" {venue}."
    if out.strip(" .") == "":
        raw = bibl.find(f"{TEI}note[@type='raw_reference']")
        out = _text(raw)
    return _WS.sub(" ", out).strip()


def parse_tei(xml_text: str | bytes, arxiv_id: str) -> PaperFullText:
    """Sections and references of one GROBID TEI document; raises TEIError on bad input."""
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError as exc:
        raise TEIError(f"malformed TEI: {exc}") from exc
    if root.tag != f"{TEI}TEI":
        raise TEIError(f"not a TEI document: root element {root.tag!r}")
    sections: list[Section] = []
    abstract = root.find(f".//{TEI}profileDesc/{TEI}abstract")
    if _text(abstract):
        sections.append(Section(name="abstract", heading="Abstract", text=_text(abstract)))
    text = root.find(f"{TEI}text")
    body = text.find(f"{TEI}body") if text is not None else None
    by_number: dict[str, str] = {}
    current, in_appendix = "other", False
    for div in body.findall(f"{TEI}div") if body is not None else []:
        head = div.find(f"{TEI}head")
        heading = _text(head)
        number = (head.get("n") or "").strip() if head is not None else ""
        top = _top_number(number)
        in_appendix = in_appendix or bool(_APPENDIX.match(heading))
        if in_appendix:
            name = "other"
        elif "." in number.rstrip(".") and top in by_number:
            name = by_number[top]  # a numbered subsection belongs to its section
        else:
            name = classify_heading(heading) if heading else None
            if name is None:
                # an unrecognised top-level section after the introduction / related work is
                # the paper's own material; an unnumbered one continues the running section
                name = "method" if number and current in ("introduction", "other") else current
        if top and top not in by_number:
            by_number[top] = name
        current = name
        content = _div_text(div)
        if content:
            sections.append(Section(name=name, heading=heading, text=content))
    back = text.find(f"{TEI}back") if text is not None else None
    for div in back.findall(f"{TEI}div[@type='annex']") if back is not None else []:
        for sub in div.findall(f"{TEI}div") or [div]:
            content = _div_text(sub)
            if content:
                sections.append(Section(name="other", heading=_text(sub.find(f"{TEI}head")) or "Appendix", text=content))
    references = [r for r in (format_reference(b) for b in references_of(root)) if r]
    if not sections:
        raise TEIError("TEI has no abstract and no body text")
    return PaperFullText(arxiv_id=arxiv_id, source="grobid", sections=sections, references=references)


def references_of(root: ET.Element) -> list[ET.Element]:
    """The bibliography entries (the header's own biblStruct is not in a listBibl)."""
    return [b for lb in root.iter(f"{TEI}listBibl") for b in lb.findall(f"{TEI}biblStruct")]


def abstract_only(arxiv_id: str, abstract: str, reason: str | None = None) -> PaperFullText:
    """The degraded full text when no GROBID server is reachable: the abstract only."""
    return PaperFullText(
        arxiv_id=arxiv_id,
        source="abstract_only",
        sections=[Section(name="abstract", heading="Abstract", text=abstract)],
        error=reason,
    )


# -- fetching: PDF download + GROBID ---------------------------------------------------------


class GrobidService:
    """Download a paper's PDF and have a GROBID server turn it into TEI, caching good TEI.

    Uses grobid-client-python's `process_pdf` (in-memory bytes, `processFulltextDocument`).
    The client's own 503 handling retries without limit; it is bounded here. The PDF is
    taken at `pdf_url_template` (default arXiv's v1: the text as first submitted, so a
    revision made after the cutoff never enters the full text).
    """

    def __init__(
        self,
        url: str,
        pdf_url_template: str = "https://arxiv.org/pdf/{arxiv_id}v1",
        cache_dir: str | None = None,
        timeout_s: int = 180,
        max_busy_retries: int = 3,
        busy_sleep_s: int = 5,
        policy=None,
        session=None,
        segment_sentences: bool = False,
    ):
        import requests

        from core.http import RetryPolicy

        self.url, self.pdf_url_template = url.rstrip("/"), pdf_url_template
        self.cache_dir = cache_dir
        self.timeout_s, self.max_busy_retries, self.busy_sleep_s = timeout_s, max_busy_retries, busy_sleep_s
        self.policy = policy or RetryPolicy(backoff_s=2.0, timeout_s=120.0)
        self.session = session or requests.Session()
        self.segment_sentences = segment_sentences
        self._client = None
        self.requests = {"pdf": 0, "grobid": 0, "cache_hits": 0}

    def check(self) -> str | None:
        """None when the server answers /api/isalive, else the reason it cannot be used."""
        from grobid_client.grobid_client import GrobidClient, ServerUnavailableException

        if not self.url:
            return "no GROBID url configured"
        try:
            client = _bounded_client_class(GrobidClient)(
                grobid_server=self.url, timeout=self.timeout_s, sleep_time=self.busy_sleep_s, check_server=False
            )
            client.max_busy_retries = self.max_busy_retries
            alive, status = client._test_server_connection()
        except ServerUnavailableException as exc:
            return f"server unreachable: {str(exc)[:200]}"
        if not alive:
            return f"server not alive (HTTP {status} from {self.url}/api/isalive)"
        self._client = client
        return None

    def _cache_path(self, arxiv_id: str):
        from pathlib import Path

        return Path(self.cache_dir) / f"{arxiv_id.replace('/', '_')}.tei.xml" if self.cache_dir else None

    def fulltext(self, arxiv_id: str) -> PaperFullText:
        """TEI for one paper (cache, else PDF + GROBID), parsed; raises FetchError / TEIError."""
        from core.http import FetchError, request

        cached = self._cache_path(arxiv_id)
        if cached is not None and cached.exists():
            self.requests["cache_hits"] += 1
            return parse_tei(cached.read_bytes(), arxiv_id)
        if self._client is None:
            reason = self.check()
            if reason:
                raise FetchError(reason)

        def is_pdf(response):
            if not response.content.startswith(b"%PDF"):
                raise ValueError(f"not a PDF ({response.headers.get('Content-Type', '?')}, {len(response.content)} bytes)")
            return response.content

        pdf, attempts = request(
            self.session, "GET", self.pdf_url_template.format(arxiv_id=arxiv_id), self.policy, validate=is_pdf
        )
        self.requests["pdf"] += attempts
        self._client.busy_retries = 0
        _, status, text = self._client.process_pdf(
            "processFulltextDocument",
            pdf,
            generate_ids=False,
            consolidate_header=False,
            consolidate_citations=False,
            segment_sentences=self.segment_sentences,
        )
        self.requests["grobid"] += 1 + self._client.busy_retries
        if status != 200:
            raise FetchError(f"GROBID HTTP {status}: {(text or '')[:200]}", status)
        parsed = parse_tei(text, arxiv_id)  # raises TEIError before anything is cached
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_name(cached.name + ".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(cached)
        return parsed


def _bounded_client_class(base):
    class BoundedGrobidClient(base):
        """grobid-client-python retries a 503 forever; stop after `max_busy_retries`."""

        max_busy_retries = 3
        busy_retries = 0

        def _handle_server_busy_retry(self, file_path, retry_func, *args, **kwargs):
            if self.busy_retries >= self.max_busy_retries:
                return (file_path, 503, f"server busy (503) after {self.busy_retries} retries")
            self.busy_retries += 1
            return super()._handle_server_busy_retry(file_path, retry_func, *args, **kwargs)

    return BoundedGrobidClient


def build_fulltext(papers, service: GrobidService | None, limit: int | None = None):
    """Full text for `papers` (Paper-like: arxiv_id, abstract). Returns (rows, failures, info).

    No service, or a server that does not answer: every paper gets its abstract only and
    `info["grobid"]` says why. A paper whose PDF, GROBID call or TEI fails gets its
    abstract-only row (with `error`) plus a Failure row; its TEI is not cached, so the
    next run retries exactly those papers.
    """
    from core.http import FetchError
    from core.records import Failure

    reason = "no GROBID url configured" if service is None else service.check()
    if reason:
        rows = [abstract_only(p.arxiv_id, p.abstract) for p in papers]
        return rows, [], {"grobid": f"unavailable: {reason}", "grobid_papers": 0, "abstract_only": len(rows)}
    rows, failures = [], []
    todo = list(papers) if limit is None else list(papers)[:limit]
    for paper in todo:
        try:
            rows.append(service.fulltext(paper.arxiv_id))
        except (FetchError, TEIError) as exc:
            why = exc.reason if isinstance(exc, FetchError) else str(exc)
            failures.append(Failure(stage="grobid", item_id=paper.arxiv_id, reason=why[:300]))
            rows.append(abstract_only(paper.arxiv_id, paper.abstract, reason=why[:300]))
    rows.extend(abstract_only(p.arxiv_id, p.abstract, reason="over the GROBID paper limit") for p in list(papers)[len(todo) :])
    n_grobid = sum(r.source == "grobid" for r in rows)
    return (
        rows,
        failures,
        {
            "grobid": f"ok: {service.url}",
            "grobid_papers": n_grobid,
            "abstract_only": len(rows) - n_grobid,
            **{f"grobid_{k}": v for k, v in service.requests.items()},
        },
    )
