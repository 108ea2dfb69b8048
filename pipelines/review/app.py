"""The review page (`foresci review`): a small Flask app with server-rendered templates.

One reviewer reads one task at a time with its evidence side by side (public text, hidden
gold, support quotes, flags and checks) and approves, rejects (reason from a fixed list +
free text) or revises (title, question, option wording) it, with keyboard shortcuts.
The queue is paged and filtered by family, flag, decision and the ranking's selection.

Safety, as this page shows abstracts and model text:

* Jinja2 autoescapes every value (no `|safe` anywhere), and the Content-Security-Policy
  allows scripts from this server's /static only, so text that looks like HTML stays text;
* every POST carries a per-session token (a page on another site cannot post decisions);
* it binds to 127.0.0.1 only (`serve`).

Two reviewers at once: decisions are appended to the SQLite log (resources/decisions.py);
the later write on a task wins, the earlier stays in its history, and the later reviewer is
told that someone decided the task after they opened it. A decision is refused when the
task was rebuilt since the page was rendered (its content hash changed).
"""

from __future__ import annotations

import math
import secrets
from typing import get_args
from urllib.parse import urlencode

from flask import Flask, abort, flash, redirect, render_template, request, session, url_for
from werkzeug.serving import make_server

from core.records import REJECT_REASONS, FlagCode
from pipelines.review.queue import STATES, QueueReader, matches, summary
from resources.decisions import DecisionError, DecisionStore
from resources.storage import PartitionStore

PAGE_SIZE = 50
FILTERS = ("family", "flag", "decision", "selected")
FLAG_CODES = (*get_args(FlagCode), "none")  # every audit flag the queue can filter by
CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'"


def create_app(store: PartitionStore, decisions: DecisionStore | None = None, *, reviewer: str = "") -> Flask:
    app = Flask(__name__)
    app.secret_key = secrets.token_hex(32)  # sessions live as long as the server: only the CSRF token
    reader = QueueReader(store, decisions or DecisionStore.for_store(store))
    app.config["reader"] = reader

    def filters() -> dict[str, str]:
        return {k: request.args.get(k, "") for k in FILTERS if request.args.get(k)}

    def csrf_token() -> str:
        if "csrf" not in session:
            session["csrf"] = secrets.token_hex(16)
        return session["csrf"]

    @app.context_processor
    def _globals():
        return {
            "csrf_token": csrf_token,
            "qs": lambda extra=None: urlencode({**filters(), **(extra or {})}),
            "reviewer_name": request.cookies.get("foresci_reviewer", reviewer),
        }

    @app.after_request
    def _headers(resp):
        resp.headers["Content-Security-Policy"] = CSP
        resp.headers["X-Content-Type-Options"] = "nosniff"
        return resp

    @app.get("/")
    def index():
        parts = reader.partitions()
        if len(parts) == 1:
            return redirect(url_for("queue", domain=parts[0][0], cutoff=parts[0][1]))
        rows = [{"domain": d, "cutoff": c, **summary(reader.heads(d, c))} for d, c in parts]
        return render_template("index.html", rows=rows)

    @app.get("/p/<domain>/<cutoff>/")
    def queue(domain: str, cutoff: str):
        items = _items_or_404(reader, domain, cutoff)
        f = filters()
        shown = [i for i in items if matches(i, **f)]
        pages = max(1, math.ceil(len(shown) / PAGE_SIZE))
        page = min(max(1, request.args.get("page", 1, type=int)), pages)
        return render_template(
            "queue.html",
            domain=domain,
            cutoff=cutoff,
            items=shown[(page - 1) * PAGE_SIZE : page * PAGE_SIZE],
            total=len(shown),
            page=page,
            pages=pages,
            filters=f,
            summary=summary(items),
            families=sorted({i.record.family for i in items}),
            flag_codes=FLAG_CODES,
            states=STATES,
        )

    @app.get("/p/<domain>/<cutoff>/task/<task_id>")
    def task(domain: str, cutoff: str, task_id: str):
        items = _items_or_404(reader, domain, cutoff)
        item = next((i for i in items if i.record.task_id == task_id), None)
        if item is None:
            abort(404, f"no task {task_id} in the audit queue of {domain} @ {cutoff}")
        shown = [i.record.task_id for i in items if matches(i, **filters()) or i.record.task_id == task_id]
        pos = shown.index(task_id)
        history = reader.decisions.history(domain, cutoff, task_id)
        rec = item.record
        labels = {o.option_id: o.text for o in rec.task.options}
        return render_template(
            "task.html",
            domain=domain,
            cutoff=cutoff,
            item=item,
            rec=rec,
            labels=labels,
            history=history,
            prev_id=shown[pos - 1] if pos > 0 else None,
            next_id=shown[pos + 1] if pos + 1 < len(shown) else None,
            position=pos + 1,
            count=len(shown),
            reasons=REJECT_REASONS,
            latest_id=history[-1].decision_id if history else 0,
        )

    @app.post("/p/<domain>/<cutoff>/task/<task_id>/decide")
    def decide(domain: str, cutoff: str, task_id: str):
        form = request.form
        if not form.get("csrf") or form.get("csrf") != session.get("csrf"):
            abort(403, "missing or stale form token: reload the page")
        items = _items_or_404(reader, domain, cutoff)
        item = next((i for i in items if i.record.task_id == task_id), None)
        if item is None:
            abort(404)
        back = url_for("task", domain=domain, cutoff=cutoff, task_id=task_id) + "?" + urlencode(filters())
        if form.get("content_hash") != item.record.content_hash:
            flash("This task was rebuilt since you opened it (its content changed); review the new version.", "error")
            return redirect(back)
        action = form.get("action", "")
        revision = {}
        if action == "revise":
            edits = {"title": form.get("title", ""), "question": form.get("question", "")}
            edits.update({f"option:{o.option_id}": form.get(f"option:{o.option_id}", "") for o in item.record.task.options})
            original = {
                "title": item.record.task.title,
                "question": item.record.task.question,
                **{f"option:{o.option_id}": o.text for o in item.record.task.options},
            }
            revision = {k: v.strip() for k, v in edits.items() if v.strip() and v.strip() != original[k]}
        name = form.get("reviewer", "").strip()
        try:
            decision = reader.decisions.record(
                domain=domain,
                cutoff=cutoff,
                task_id=task_id,
                content_hash=item.record.content_hash,
                action=action,
                reviewer=name,
                reason=form.get("reason", ""),
                note=form.get("note", ""),
                revision=revision,
            )
        except DecisionError as exc:
            flash(f"Not recorded: {exc}", "error")
            return redirect(back)
        earlier = [
            h
            for h in reader.decisions.history(domain, cutoff, task_id)
            if form.get("seen", type=int, default=0) < h.decision_id < decision.decision_id
        ]
        if earlier:
            other = earlier[-1]
            flash(
                f"{other.reviewer} decided {task_id} ({other.action}) after you opened it; yours is now the "
                "latest, theirs is kept in the history.",
                "warning",
            )
        flash(f"{task_id}: {decision.action}{' (' + decision.reason + ')' if decision.reason else ''} recorded.", "ok")
        nxt = _next_after(reader.items(domain, cutoff), task_id, filters())
        target = (
            url_for("task", domain=domain, cutoff=cutoff, task_id=nxt) if nxt else url_for("queue", domain=domain, cutoff=cutoff)
        )
        resp = redirect(target + ("?" + urlencode(filters()) if filters() else ""))
        resp.set_cookie("foresci_reviewer", name, samesite="Strict", httponly=True)
        return resp

    return app


def _items_or_404(reader: QueueReader, domain: str, cutoff: str):
    if (domain, cutoff) not in reader.partitions():
        abort(404, f"no audit queue for {domain} @ {cutoff}: materialize audit_queue first")
    return reader.items(domain, cutoff)


def _next_after(items, task_id: str, f: dict[str, str]) -> str | None:
    """The next task in queue order after `task_id` that still passes the filters."""
    order = [i.record.task_id for i in items]
    start = order.index(task_id)
    for i in items[start + 1 :]:
        if matches(i, **f):
            return i.record.task_id
    return None


def serve(app: Flask, port: int = 8765):
    """A threaded server on 127.0.0.1 (never another interface); port 0 picks a free one.
    Returns the server: `serve_forever()` to run, `shutdown()` to stop."""
    return make_server("127.0.0.1", port, app, threaded=True)
