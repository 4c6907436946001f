#!/usr/bin/env python3
"""Local stand-ins for the Clockify v1 and Toggl Track v9 APIs, for trackee's sync tests.

One process plays one service:

    python3 fake_time_service.py --service clockify --token SECRET --port 0

The first line on stdout is `listening on 127.0.0.1:PORT` (the API); the second
is `control on 127.0.0.1:PORT` (a control port that stays up while the API is
down). Nothing else is ever written to stdout. All state is in memory.

Paths under /_control/ need no token and are not part of either service: they
show the state and the request log, queue failures for upcoming requests, take
the API down and bring it back. README.md describes them.

Python 3 standard library only.
"""

import argparse
import base64
import errno
import itertools
import json
import re
import signal
import socket
import socketserver
import sys
import threading
import time
import traceback
from datetime import datetime, timezone
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

MAX_BODY_BYTES = 8 * 1024 * 1024
JSON_TYPE = "application/json"


# ---------------------------------------------------------------------------
# Shared vocabulary


class ApiError(Exception):
    """A request the service refuses: the status and the text it would send."""

    def __init__(self, status, message, code=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        # Sent with the error's answer (Toggl's quota headers).
        self.headers = ()


class Body:
    """A request body as read off the wire, parsed as JSON once."""

    __slots__ = ("raw", "value", "problem")

    def __init__(self, raw):
        self.raw = raw
        self.value = None
        self.problem = None
        if raw:
            try:
                self.value = json.loads(raw)
            except ValueError as error:
                self.problem = str(error)

    @property
    def present(self):
        return bool(self.raw)

    def for_log(self):
        if not self.raw:
            return None
        if self.problem is None:
            return self.value
        return self.raw[:2000].decode("utf-8", "replace")


class IdSequence:
    """Ids handed out in order, so a reset gives the same ids again."""

    def __init__(self, first, render=lambda n: n):
        self.first = first
        self.render = render
        self.reset()

    def reset(self):
        self._next = itertools.count(self.first)

    def next(self):
        return self.render(next(self._next))


def encode_json(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def json_type(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def parse_instant(text):
    """Seconds since the epoch for an RFC 3339 date-time with an offset, or None.

    Both services keep whole seconds, so fractions are dropped here.
    """
    if not isinstance(text, str) or "T" not in text.upper():
        return None
    value = text.strip()
    if value[-1:] in ("Z", "z"):
        value = value[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return int(moment.timestamp() // 1)


def parse_day_or_instant(text):
    """Like parse_instant, but a bare YYYY-MM-DD means its midnight in UTC."""
    if isinstance(text, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
        try:
            day = datetime.strptime(text.strip(), "%Y-%m-%d").replace(tzinfo=timezone.utc)
        except ValueError:
            return None
        return int(day.timestamp())
    return parse_instant(text)


def utc_text(seconds, suffix="Z"):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + suffix


def java_duration(seconds):
    """A duration the way Clockify (java.time.Duration) writes it: PT1H30M, PT0S."""
    if seconds == 0:
        return "PT0S"
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return "PT" + (f"{hours}H" if hours else "") + (f"{minutes}M" if minutes else "") + (f"{secs}S" if secs else "")


def first(query, name):
    values = query.get(name)
    return values[0] if values else None


def query_flag(query, name):
    value = first(query, name)
    return None if value is None else value.strip().lower() == "true"


def phrase(status):
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def gateway_page(status):
    """What a load balancer in front of either service sends for 502/503/504: HTML, not JSON."""
    title = f"{status} {phrase(status)}"
    page = f"<html>\r\n<head><title>{title}</title></head>\r\n<body>\r\n<center><h1>{title}</h1></center>\r\n</body>\r\n</html>\r\n"
    return "text/html", page.encode("ascii")


NO_BODY = object()


class Stored:
    """One time entry as the service shows it, plus what listing filters and sorts on.

    `fields` keeps the validated values for services whose updates merge (Toggl).
    """

    __slots__ = ("json", "workspace", "start", "running", "seq", "fields")

    def __init__(self, json_value, workspace, start, running, seq, fields=None):
        self.json = json_value
        self.workspace = workspace
        self.start = start
        self.running = running
        self.seq = seq
        self.fields = fields


# ---------------------------------------------------------------------------
# What both services share


class Service:
    """A fake API: a token, one lock over the state, and a table of routes.

    Route handlers run with the lock held and return (status, payload,
    extra headers); NO_BODY as the payload means an empty body.
    """

    name = ""
    base_path = ""
    routes = ()

    def __init__(self, settings):
        self.settings = settings
        self.token = settings.token
        self.lock = threading.Lock()
        self._routes = [(method, re.compile(pattern), getattr(self, handler)) for method, pattern, handler in self.routes]
        self.reset()

    def handle(self, method, path, query, body, headers):
        if not path.startswith(self.base_path + "/"):
            raise self.route_not_found()
        self.authenticate(headers)
        inner = path[len(self.base_path):]
        allowed = []
        for route_method, pattern, handler in self._routes:
            match = pattern.fullmatch(inner)
            if match is None:
                continue
            if route_method == method:
                with self.lock:
                    return handler(match, query, body)
            allowed.append(route_method)
        if allowed:
            raise ApiError(405, f"Request method '{method}' is not supported", 405)
        raise self.route_not_found()

    def reset_state(self):
        with self.lock:
            self.reset()

    def snapshot(self):
        with self.lock:
            return self.state()

    def injected_error(self, status, message=None):
        """The response for a failure queued through /_control/fail."""
        if status in (502, 503, 504):
            return gateway_page(status)
        return self.render_error(ApiError(status, message or self.default_message(status)))

    def bad(self, message):
        return ApiError(400, message, self.validation_code)

    def json_object(self, body):
        if not body.present:
            raise self.bad(self.missing_body_message)
        if body.problem is not None or not isinstance(body.value, dict):
            raise self.bad(self.malformed_body_message(body))
        return body.value

    def page(self, items, query, size_name, default_size, max_size):
        page = self.int_query(query, "page", 1)
        size = self.int_query(query, size_name, default_size)
        if page < 1:
            raise self.bad("page must be greater than 0")
        if size < 1:
            raise self.bad(f"{size_name} must be greater than 0")
        if size > max_size:
            raise self.bad(f"{size_name} cannot be greater than {max_size}")
        return items[(page - 1) * size:page * size]

    def int_query(self, query, name, default):
        value = first(query, name)
        if value is None or value == "":
            return default
        try:
            return int(value)
        except ValueError:
            raise self.bad(f"{name} must be a whole number, not '{value}'") from None


# ---------------------------------------------------------------------------
# Clockify


class Clockify(Service):
    """Clockify's REST API v1, the part trackee uses (https://docs.clockify.me/).

    Errors are {"message": ..., "code": ...}; times are yyyy-MM-ddThh:mm:ssZ
    and durations java.time.Duration text (PT1H30M).
    """

    name = "clockify"
    base_path = "/api/v1"
    content_type = JSON_TYPE
    validation_code = 501
    missing_body_message = "Required request body is missing"
    routes = (
        ("GET", r"/user", "get_user"),
        ("GET", r"/workspaces", "list_workspaces"),
        ("GET", r"/workspaces/(?P<ws>[^/]+)/projects", "list_projects"),
        ("POST", r"/workspaces/(?P<ws>[^/]+)/projects", "create_project"),
        ("GET", r"/workspaces/(?P<ws>[^/]+)/projects/(?P<id>[^/]+)", "get_project"),
        ("GET", r"/workspaces/(?P<ws>[^/]+)/clients", "list_clients"),
        ("POST", r"/workspaces/(?P<ws>[^/]+)/clients", "create_client"),
        ("GET", r"/workspaces/(?P<ws>[^/]+)/tags", "list_tags"),
        ("POST", r"/workspaces/(?P<ws>[^/]+)/tags", "create_tag"),
        ("POST", r"/workspaces/(?P<ws>[^/]+)/time-entries", "create_entry"),
        ("GET", r"/workspaces/(?P<ws>[^/]+)/time-entries/(?P<id>[^/]+)", "get_entry"),
        ("PUT", r"/workspaces/(?P<ws>[^/]+)/time-entries/(?P<id>[^/]+)", "replace_entry"),
        ("DELETE", r"/workspaces/(?P<ws>[^/]+)/time-entries/(?P<id>[^/]+)", "delete_entry"),
        ("GET", r"/workspaces/(?P<ws>[^/]+)/user/(?P<user>[^/]+)/time-entries", "list_entries"),
    )

    def reset(self):
        # Ids look like the 24-digit hex object ids Clockify uses.
        self.ids = IdSequence(0x6650A1B2C3D4E5F600000001, lambda n: f"{n:024x}")
        self.seq = itertools.count(1)
        user_id = self.ids.next()
        self.workspaces = {}
        for name in self.settings.workspaces:
            workspace_id = self.ids.next()
            self.workspaces[workspace_id] = {
                "id": workspace_id,
                "name": name,
                "hourlyRate": {"amount": 0, "currency": "USD"},
                "memberships": [{
                    "userId": user_id,
                    "hourlyRate": None,
                    "costRate": None,
                    "targetId": workspace_id,
                    "membershipType": "WORKSPACE",
                    "membershipStatus": "ACTIVE",
                }],
                "workspaceSettings": {"timeRoundingInReports": False, "onlyAdminsSeeBillableRates": True, "onlyAdminsCreateProject": False},
                "imageUrl": "",
                "featureSubscriptionType": None,
            }
        default_workspace = next(iter(self.workspaces))
        self.user = {
            "id": user_id,
            "email": self.settings.email,
            "name": self.settings.user_name,
            "memberships": [],
            "profilePicture": "https://img.clockify.me/no-user-image.png",
            "activeWorkspace": default_workspace,
            "defaultWorkspace": default_workspace,
            "settings": {"weekStart": "MONDAY", "timeZone": "UTC", "timeFormat": "HOUR24", "dateFormat": "YYYY-MM-DD"},
            "status": "ACTIVE",
        }
        self.projects = {}
        self.clients = {}
        self.tags = {}
        self.entries = {}

    def state(self):
        return {
            "service": self.name,
            "user": self.user,
            "workspaces": list(self.workspaces.values()),
            "projects": list(self.projects.values()),
            "clients": list(self.clients.values()),
            "tags": list(self.tags.values()),
            "time_entries": [stored.json for stored in sorted(self.entries.values(), key=lambda s: s.seq)],
        }

    # -- errors

    def authenticate(self, headers):
        # Clockify answers a missing and a wrong key alike.
        if headers.get("X-Api-Key") != self.token:
            raise ApiError(401, "Full authentication is required to access this resource", 1000)

    def render_error(self, error):
        code = error.code if error.code is not None else {401: 1000}.get(error.status, error.status)
        return self.content_type, encode_json({"message": error.message, "code": code})

    def default_message(self, status):
        return {
            400: "Bad Request",
            401: "Full authentication is required to access this resource",
            403: "Access Denied",
            404: "Not Found",
            429: "Too many requests",
            500: "Internal Server Error",
        }.get(status, phrase(status) or "Error")

    def route_not_found(self):
        return ApiError(404, "No static resource found", 404)

    def malformed_body_message(self, body):
        if body.problem is not None:
            return f"JSON parse error: {body.problem}"
        return f"JSON parse error: expected an object, not {json_type(body.value)}"

    def not_found(self, kind, identifier):
        return ApiError(404, f"{kind} with ID '{identifier}' not found", 501)

    # -- lookups

    def workspace(self, workspace_id):
        if workspace_id not in self.workspaces:
            raise self.not_found("WORKSPACE", workspace_id)
        return workspace_id

    def in_workspace(self, table, workspace_id):
        return [item for item in table.values() if item["workspaceId"] == workspace_id]

    def named_list(self, items, query, default_size=50):
        name = first(query, "name")
        if name:
            if query_flag(query, "strict-name-search"):
                items = [item for item in items if item["name"] == name]
            else:
                items = [item for item in items if name.lower() in item["name"].lower()]
        archived = query_flag(query, "archived")
        if archived is not None:
            items = [item for item in items if item["archived"] == archived]
        items.sort(key=lambda item: (item["name"].lower(), item["id"]))
        return self.page(items, query, "page-size", default_size, 5000)

    def required_name(self, data, kind):
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise self.bad(f"{kind} name must not be empty")
        if len(name) > 250:
            raise self.bad(f"{kind} name must have at most 250 characters")
        return name.strip()

    # -- user and workspaces

    def get_user(self, match, query, body):
        return 200, self.user, ()

    def list_workspaces(self, match, query, body):
        return 200, list(self.workspaces.values()), ()

    # -- projects, clients, tags

    def list_projects(self, match, query, body):
        workspace_id = self.workspace(match["ws"])
        return 200, self.named_list(self.in_workspace(self.projects, workspace_id), query), ()

    def get_project(self, match, query, body):
        workspace_id = self.workspace(match["ws"])
        project = self.projects.get(match["id"])
        if project is None or project["workspaceId"] != workspace_id:
            raise self.not_found("PROJECT", match["id"])
        return 200, project, ()

    def create_project(self, match, query, body):
        workspace_id = self.workspace(match["ws"])
        data = self.json_object(body)
        name = self.required_name(data, "Project")
        client_id = data.get("clientId") or ""
        client_name = ""
        if client_id:
            client = self.clients.get(client_id) if isinstance(client_id, str) else None
            if client is None or client["workspaceId"] != workspace_id:
                raise self.bad(f"Client with id {client_id} doesn't belong to Workspace with id {workspace_id}")
            client_name = client["name"]
        # Clockify allows one project of a name per client.
        for project in self.in_workspace(self.projects, workspace_id):
            if project["name"] == name and project["clientId"] == client_id:
                raise self.bad("Project with that name already exists")
        color = data.get("color", "#03A9F4")
        if not isinstance(color, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", color):
            raise self.bad("color must look like #RRGGBB")
        for flag in ("billable", "isPublic"):
            if flag in data and not isinstance(data[flag], bool):
                raise self.bad(f"{flag} must be true or false")
        project_id = self.ids.next()
        project = {
            "id": project_id,
            "name": name,
            "hourlyRate": None,
            "clientId": client_id,
            "workspaceId": workspace_id,
            "billable": data.get("billable", False),
            "memberships": [],
            "color": color,
            "estimate": {"estimate": "PT0S", "type": "AUTO"},
            "archived": False,
            "duration": "PT0S",
            "clientName": client_name,
            "note": data.get("note") or "",
            "template": False,
            "public": data.get("isPublic", False),
            "costRate": None,
        }
        self.projects[project_id] = project
        return 201, project, ()

    def list_clients(self, match, query, body):
        workspace_id = self.workspace(match["ws"])
        return 200, self.named_list(self.in_workspace(self.clients, workspace_id), query), ()

    def create_client(self, match, query, body):
        workspace_id = self.workspace(match["ws"])
        name = self.required_name(self.json_object(body), "Client")
        if any(client["name"] == name for client in self.in_workspace(self.clients, workspace_id)):
            raise self.bad("Client with that name already exists on workspace")
        client_id = self.ids.next()
        client = {"id": client_id, "name": name, "workspaceId": workspace_id, "archived": False, "address": None, "note": None}
        self.clients[client_id] = client
        return 201, client, ()

    def list_tags(self, match, query, body):
        workspace_id = self.workspace(match["ws"])
        return 200, self.named_list(self.in_workspace(self.tags, workspace_id), query), ()

    def create_tag(self, match, query, body):
        workspace_id = self.workspace(match["ws"])
        name = self.required_name(self.json_object(body), "Tag")
        if any(tag["name"] == name for tag in self.in_workspace(self.tags, workspace_id)):
            raise self.bad("Tag with that name already exists on workspace")
        tag_id = self.ids.next()
        tag = {"id": tag_id, "name": name, "workspaceId": workspace_id, "archived": False}
        self.tags[tag_id] = tag
        return 201, tag, ()

    # -- time entries

    def entry_fields(self, workspace_id, data, replacing):
        """The validated fields of a create (POST) or a whole-entry replace (PUT)."""
        raw_start = data.get("start")
        if raw_start is None:
            if replacing:
                raise self.bad("start must not be null")
            start = int(time.time())  # Clockify starts a timer now.
        else:
            start = parse_instant(raw_start)
            if start is None:
                raise self.bad(f"start must be a date-time in yyyy-MM-ddThh:mm:ssZ format, not {json.dumps(raw_start)}")
        raw_end = data.get("end")
        end = None
        if raw_end is not None:
            end = parse_instant(raw_end)
            if end is None:
                raise self.bad(f"end must be a date-time in yyyy-MM-ddThh:mm:ssZ format, not {json.dumps(raw_end)}")
            if end < start:
                raise self.bad("End time must be after start time")
        description = data.get("description")
        if description is not None and not isinstance(description, str):
            raise self.bad("description must be a string")
        if description is not None and len(description) > 3000:
            raise self.bad("Description must be at most 3000 characters long")
        project_id = data.get("projectId") or None
        project = None
        if project_id is not None:
            project = self.projects.get(project_id) if isinstance(project_id, str) else None
            if project is None or project["workspaceId"] != workspace_id:
                raise self.bad(f"Project with id {project_id} doesn't belong to Workspace with id {workspace_id}")
        if data.get("taskId"):
            raise self.bad(f"Task with id {data['taskId']} doesn't belong to Project")
        raw_tags = data.get("tagIds")
        tag_ids = None
        if raw_tags is not None:
            if not isinstance(raw_tags, list) or not all(isinstance(tag, str) for tag in raw_tags):
                raise self.bad("tagIds must be a list of tag ids")
            for tag_id in raw_tags:
                tag = self.tags.get(tag_id)
                if tag is None or tag["workspaceId"] != workspace_id:
                    raise self.bad(f"Tag with id {tag_id} doesn't belong to Workspace with id {workspace_id}")
            tag_ids = list(dict.fromkeys(raw_tags)) or None
        billable = data.get("billable")
        if billable is None:
            billable = project["billable"] if project else False
        elif not isinstance(billable, bool):
            raise self.bad("billable must be true or false")
        return {
            "start": start,
            "end": end,
            "description": description or "",
            "projectId": project_id,
            "tagIds": tag_ids,
            "billable": billable,
        }

    def entry_json(self, entry_id, workspace_id, fields):
        start, end = fields["start"], fields["end"]
        return {
            "id": entry_id,
            "description": fields["description"],
            "tagIds": fields["tagIds"],
            "userId": self.user["id"],
            "billable": fields["billable"],
            "taskId": None,
            "projectId": fields["projectId"],
            "workspaceId": workspace_id,
            "timeInterval": {
                "start": utc_text(start),
                "end": utc_text(end) if end is not None else None,
                "duration": java_duration(end - start) if end is not None else None,
            },
            "customFieldValues": [],
            "type": "REGULAR",
            "kioskId": None,
            "hourlyRate": None,
            "costRate": None,
            "isLocked": False,
        }

    def stored_entry(self, match):
        workspace_id = self.workspace(match["ws"])
        stored = self.entries.get(match["id"])
        if stored is None or stored.workspace != workspace_id:
            raise self.not_found("TIMEENTRY", match["id"])
        return workspace_id, stored

    def create_entry(self, match, query, body):
        workspace_id = self.workspace(match["ws"])
        fields = self.entry_fields(workspace_id, self.json_object(body), replacing=False)
        entry_id = self.ids.next()
        entry = self.entry_json(entry_id, workspace_id, fields)
        self.entries[entry_id] = Stored(entry, workspace_id, fields["start"], fields["end"] is None, next(self.seq))
        return 201, entry, ()

    def get_entry(self, match, query, body):
        _, stored = self.stored_entry(match)
        return 200, stored.json, ()

    def replace_entry(self, match, query, body):
        workspace_id, stored = self.stored_entry(match)
        fields = self.entry_fields(workspace_id, self.json_object(body), replacing=True)
        entry = self.entry_json(stored.json["id"], workspace_id, fields)
        self.entries[entry["id"]] = Stored(entry, workspace_id, fields["start"], fields["end"] is None, stored.seq)
        return 200, entry, ()

    def delete_entry(self, match, query, body):
        _, stored = self.stored_entry(match)
        del self.entries[stored.json["id"]]
        return 204, NO_BODY, ()

    def list_entries(self, match, query, body):
        """Entries of one user, newest first; start and end both bound the entry's start."""
        workspace_id = self.workspace(match["ws"])
        if match["user"] != self.user["id"]:
            raise self.not_found("USER", match["user"])
        bounds = []
        for name in ("start", "end"):
            text = first(query, name)
            value = None
            if text:
                value = parse_instant(text)
                if value is None:
                    raise self.bad(f"{name} must be a date-time in yyyy-MM-ddThh:mm:ssZ format, not '{text}'")
            bounds.append(value)
        since, until = bounds
        description = (first(query, "description") or "").lower()
        in_progress = query_flag(query, "in-progress")
        selected = [
            stored for stored in self.entries.values()
            if stored.workspace == workspace_id
            and (since is None or stored.start >= since)
            and (until is None or stored.start <= until)
            and (not description or description in stored.json["description"].lower())
            and (in_progress is None or stored.running == in_progress)
        ]
        selected.sort(key=lambda stored: (stored.start, stored.seq), reverse=True)
        return 200, [stored.json for stored in self.page(selected, query, "page-size", 50, 5000)], ()


# ---------------------------------------------------------------------------
# Toggl Track


class Toggl(Service):
    """Toggl Track's API v9, the part trackee uses (https://engineering.toggl.com/docs/).

    Errors are a JSON string; a failed login is 403; times come back as
    2006-01-02T15:04:05+00:00 and durations in seconds (-1 while running).
    """

    name = "toggl"
    base_path = "/api/v9"
    content_type = JSON_TYPE + "; charset=utf-8"
    validation_code = None
    missing_body_message = "Invalid JSON input"
    routes = (
        ("GET", r"/me", "get_me"),
        ("GET", r"/me/workspaces", "list_workspaces"),
        ("GET", r"/workspaces", "list_workspaces"),
        ("GET", r"/workspaces/(?P<wid>\d+)", "get_workspace"),
        ("GET", r"/workspaces/(?P<wid>\d+)/projects", "list_projects"),
        ("POST", r"/workspaces/(?P<wid>\d+)/projects", "create_project"),
        ("GET", r"/workspaces/(?P<wid>\d+)/projects/(?P<id>\d+)", "get_project"),
        ("GET", r"/workspaces/(?P<wid>\d+)/clients", "list_clients"),
        ("POST", r"/workspaces/(?P<wid>\d+)/clients", "create_client"),
        ("GET", r"/workspaces/(?P<wid>\d+)/tags", "list_tags"),
        ("POST", r"/workspaces/(?P<wid>\d+)/tags", "create_tag"),
        ("POST", r"/workspaces/(?P<wid>\d+)/time_entries", "create_entry"),
        ("PUT", r"/workspaces/(?P<wid>\d+)/time_entries/(?P<id>\d+)", "update_entry"),
        ("DELETE", r"/workspaces/(?P<wid>\d+)/time_entries/(?P<id>\d+)", "delete_entry"),
        ("GET", r"/me/time_entries", "list_entries"),
        ("GET", r"/me/time_entries/current", "current_entry"),
        ("GET", r"/me/time_entries/(?P<id>\d+)", "get_entry"),
    )

    def handle(self, method, path, query, body, headers):
        """The quota first (Toggl counts a request before it looks at it), then the route."""
        if not path.startswith(self.base_path + "/"):
            raise self.route_not_found()
        self.authenticate(headers)
        inner = path[len(self.base_path):]
        scope = "user" if inner == "/me" or inner.startswith("/me/") else "workspace"
        with self.lock:
            quota_headers = self.quota.take(scope)
        try:
            status, payload, extra = super().handle(method, path, query, body, headers)
        except ApiError as error:
            error.headers = quota_headers
            raise
        return status, payload, tuple(extra) + quota_headers

    def reset(self):
        self.quota = Quota(self.settings.quota, self.settings.user_quota)
        self.seq = itertools.count(1)
        self.project_ids = IdSequence(203_000_001)
        self.client_ids = IdSequence(61_000_001)
        self.tag_ids = IdSequence(17_000_001)
        # Real time entry ids no longer fit in 32 bits.
        self.entry_ids = IdSequence(3_500_000_001)
        now = self.now()
        user_id = 9_000_001
        self.workspaces = {}
        for offset, name in enumerate(self.settings.workspaces):
            workspace_id = 7_654_321 + offset
            self.workspaces[workspace_id] = {
                "id": workspace_id,
                "organization_id": 6_543_210 + offset,
                "name": name,
                "premium": False,
                "business_ws": False,
                "admin": True,
                "role": "admin",
                "default_hourly_rate": None,
                "default_currency": "USD",
                "only_admins_may_create_projects": False,
                "only_admins_may_create_tags": False,
                "only_admins_see_team_dashboard": False,
                "projects_billable_by_default": True,
                "rounding": 1,
                "rounding_minutes": 0,
                "api_token": None,
                "at": now,
                "logo_url": "https://assets.track.toggl.com/images/workspace.jpg",
                "ical_enabled": False,
            }
        self.me = {
            "id": user_id,
            # The real /me includes the token; a client must not log or store it.
            "api_token": self.token,
            "email": self.settings.email,
            "fullname": self.settings.user_name,
            "timezone": "UTC",
            "default_workspace_id": next(iter(self.workspaces)),
            "beginning_of_week": 1,
            "image_url": "https://assets.track.toggl.com/images/profile.png",
            "created_at": now,
            "updated_at": now,
            "openid_enabled": False,
            "country_id": None,
            "has_password": True,
            "at": now,
        }
        self.projects = {}
        self.clients = {}
        self.tags = {}
        self.entries = {}

    def state(self):
        me = dict(self.me)
        del me["api_token"]
        return {
            "service": self.name,
            "quota": self.quota.state(),
            "me": me,
            "workspaces": list(self.workspaces.values()),
            "projects": list(self.projects.values()),
            "clients": list(self.clients.values()),
            "tags": list(self.tags.values()),
            "time_entries": [stored.json for stored in sorted(self.entries.values(), key=lambda s: s.seq)],
        }

    @staticmethod
    def now():
        return utc_text(int(time.time()), "+00:00")

    # -- errors

    def authenticate(self, headers):
        scheme, _, credentials = (headers.get("Authorization") or "").partition(" ")
        if scheme.lower() == "basic":
            try:
                user, _, password = base64.b64decode(credentials.strip(), validate=True).decode("utf-8").partition(":")
            except ValueError:
                user = password = None
            if user == self.token and password == "api_token":
                return
        # https://engineering.toggl.com/docs/authentication: "If authentication fails, HTTP status code 403 is returned."
        raise ApiError(403, "Incorrect username and/or password")

    def render_error(self, error):
        return self.content_type, encode_json(error.message)

    def default_message(self, status):
        return {
            400: "Bad Request",
            401: "Unauthorized",
            402: "You have hit your API quota. Please try again later.",
            403: "User does not have access to this resource.",
            404: "Resource not found",
            429: "Too Many Requests",
            500: "Internal Server Error",
        }.get(status, phrase(status) or "Error")

    def route_not_found(self):
        return ApiError(404, "404 page not found")

    def malformed_body_message(self, body):
        return "Invalid JSON input"

    def forbidden(self):
        return ApiError(403, "User does not have access to this resource.")

    # -- lookups

    def workspace(self, text):
        workspace_id = int(text)
        if workspace_id not in self.workspaces:
            raise self.forbidden()
        return workspace_id

    def optional_int(self, data, *names):
        """The first of `names` present in `data`: (present, value), an int or None."""
        for name in names:
            if name in data:
                value = data[name]
                if value is not None and not is_int(value):
                    raise self.bad(f'Unexpected "{name}" type {json_type(value)}')
                return True, value
        return False, None

    def required_name(self, data):
        name = data.get("name")
        if name is not None and not isinstance(name, str):
            raise self.bad(f'Unexpected "name" type {json_type(name)}')
        if not name or not name.strip():
            raise self.bad("name can't be blank")
        return name.strip()

    def name_filter(self, items, query):
        name = first(query, "name")
        if name:
            items = [item for item in items if name.lower() in item["name"].lower()]
        return items

    # -- user and workspaces

    def get_me(self, match, query, body):
        return 200, self.me, ()

    def list_workspaces(self, match, query, body):
        return 200, list(self.workspaces.values()), ()

    def get_workspace(self, match, query, body):
        return 200, self.workspaces[self.workspace(match["wid"])], ()

    # -- projects, clients, tags

    def list_projects(self, match, query, body):
        workspace_id = self.workspace(match["wid"])
        items = [project for project in self.projects.values() if project["workspace_id"] == workspace_id]
        items = self.name_filter(items, query)
        active = (first(query, "active") or "").lower()
        if active in ("true", "false"):
            items = [project for project in items if project["active"] == (active == "true")]
        items.sort(key=lambda project: (project["name"].lower(), project["id"]))
        return 200, self.page(items, query, "per_page", 151, 200), ()

    def get_project(self, match, query, body):
        workspace_id = self.workspace(match["wid"])
        project = self.projects.get(int(match["id"]))
        if project is None or project["workspace_id"] != workspace_id:
            raise ApiError(404, "Resource not found")
        return 200, project, ()

    def create_project(self, match, query, body):
        workspace_id = self.workspace(match["wid"])
        data = self.json_object(body)
        name = self.required_name(data)
        _, client_id = self.optional_int(data, "client_id", "cid")
        if client_id is not None:
            client = self.clients.get(client_id)
            if client is None or client["wid"] != workspace_id:
                raise self.bad(f"Client with ID {client_id} isn't present in workspace {workspace_id}")
        if any(project["name"] == name and project["workspace_id"] == workspace_id for project in self.projects.values()):
            raise self.bad("Name has already been taken")
        for flag in ("active", "is_private", "billable"):
            if flag in data and not isinstance(data[flag], bool):
                raise self.bad(f'Unexpected "{flag}" type {json_type(data[flag])}')
        now = self.now()
        project_id = self.project_ids.next()
        project = {
            "id": project_id,
            "workspace_id": workspace_id,
            "client_id": client_id,
            "name": name,
            "is_private": data.get("is_private", True),
            "active": data.get("active", True),
            "at": now,
            "created_at": now,
            "server_deleted_at": None,
            "color": data.get("color", "#06aaf5"),
            "billable": data.get("billable", False),
            "template": False,
            "auto_estimates": None,
            "estimated_hours": None,
            "estimated_seconds": None,
            "rate": None,
            "rate_last_updated": None,
            "currency": None,
            "recurring": False,
            "fixed_fee": None,
            "actual_hours": 0,
            "actual_seconds": 0,
            "status": "active",
            "wid": workspace_id,
            "cid": client_id,
        }
        self.projects[project_id] = project
        return 200, project, ()

    def list_clients(self, match, query, body):
        workspace_id = self.workspace(match["wid"])
        items = [client for client in self.clients.values() if client["wid"] == workspace_id]
        items = self.name_filter(items, query)
        status = (first(query, "status") or "active").lower()
        if status != "both":
            items = [client for client in items if client["archived"] == (status == "archived")]
        items.sort(key=lambda client: (client["name"].lower(), client["id"]))
        return 200, items, ()

    def create_client(self, match, query, body):
        workspace_id = self.workspace(match["wid"])
        name = self.required_name(self.json_object(body))
        if any(client["name"] == name and client["wid"] == workspace_id for client in self.clients.values()):
            raise self.bad("Name has already been taken")
        client_id = self.client_ids.next()
        client = {"id": client_id, "wid": workspace_id, "archived": False, "name": name, "at": self.now(), "creator_id": self.me["id"]}
        self.clients[client_id] = client
        return 200, client, ()

    def list_tags(self, match, query, body):
        workspace_id = self.workspace(match["wid"])
        items = [tag for tag in self.tags.values() if tag["workspace_id"] == workspace_id]
        items.sort(key=lambda tag: (tag["name"].lower(), tag["id"]))
        return 200, items, ()

    def create_tag(self, match, query, body):
        workspace_id = self.workspace(match["wid"])
        name = self.required_name(self.json_object(body))
        if self.tag_named(workspace_id, name) is not None:
            raise self.bad("Tag already exists")
        return 200, self.add_tag(workspace_id, name), ()

    def tag_named(self, workspace_id, name):
        for tag in self.tags.values():
            if tag["workspace_id"] == workspace_id and tag["name"] == name:
                return tag
        return None

    def add_tag(self, workspace_id, name):
        tag_id = self.tag_ids.next()
        tag = {"id": tag_id, "workspace_id": workspace_id, "name": name, "at": self.now(), "creator_id": self.me["id"], "deleted_at": None}
        self.tags[tag_id] = tag
        return tag

    # -- time entries

    def entry_fields(self, workspace_id, data, current):
        """Fields after applying `data` to `current` (None when creating).

        Toggl's PUT changes only the fields it is sent, so this merges.
        """
        fields = dict(current) if current else {"description": None, "project_id": None, "billable": False, "tag_ids": None, "start": None, "stop": None}
        if "description" in data:
            description = data["description"]
            if description is not None and not isinstance(description, str):
                raise self.bad(f'Unexpected "description" type {json_type(description)}')
            if description is not None and len(description) > 3000:
                raise self.bad("Maximum length for description is 3000 characters")
            fields["description"] = description
        present, project_id = self.optional_int(data, "project_id", "pid")
        if present:
            if project_id is not None:
                project = self.projects.get(project_id)
                if project is None or project["workspace_id"] != workspace_id:
                    raise self.bad("User cannot access the selected project")
            fields["project_id"] = project_id
        _, task_id = self.optional_int(data, "task_id", "tid")
        if task_id is not None:
            raise self.bad("User cannot access selected task")
        if "billable" in data:
            if not isinstance(data["billable"], bool):
                raise self.bad(f'Unexpected "billable" type {json_type(data["billable"])}')
            fields["billable"] = data["billable"]
        if "tags" in data or "tag_ids" in data:
            fields["tag_ids"] = self.tags_after(workspace_id, data, fields["tag_ids"])
        self.times_after(data, fields, creating=current is None)
        return fields

    def tags_after(self, workspace_id, data, current):
        wanted = []
        names = data.get("tags")
        if names is not None:
            if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
                raise self.bad('Unexpected "tags" type, expected an array of strings')
            for name in names:
                # Documented: a tag name that does not exist yet is created.
                tag = self.tag_named(workspace_id, name) or self.add_tag(workspace_id, name)
                wanted.append(tag["id"])
        ids = data.get("tag_ids")
        if ids is not None:
            if not isinstance(ids, list) or not all(is_int(tag_id) for tag_id in ids):
                raise self.bad('Unexpected "tag_ids" type, expected an array of numbers')
            for tag_id in ids:
                tag = self.tags.get(tag_id)
                if tag is None or tag["workspace_id"] != workspace_id:
                    raise self.bad(f"Tag with ID {tag_id} isn't present in workspace {workspace_id}")
                wanted.append(tag_id)
        action = data.get("tag_action")
        if action == "add":
            merged = list(dict.fromkeys((current or []) + wanted))
        elif action == "delete":
            merged = [tag_id for tag_id in (current or []) if tag_id not in wanted]
        else:
            merged = list(dict.fromkeys(wanted))
        return merged

    def times_after(self, data, fields, creating):
        if data.get("start") is not None:
            start = parse_instant(data["start"])
            if start is None:
                raise self.bad(f"Invalid start time: {json.dumps(data['start'])}, expected RFC3339 format")
            fields["start"] = start
        if fields["start"] is None:
            raise self.bad("Start time must be provided")
        start = fields["start"]
        stop_sent = "stop" in data
        stop = None
        if stop_sent and data["stop"] is not None:
            stop = parse_instant(data["stop"])
            if stop is None:
                raise self.bad(f"Invalid stop time: {json.dumps(data['stop'])}, expected RFC3339 format")
        duration_sent, duration = self.optional_int(data, "duration")
        duration_sent = duration_sent and duration is not None
        if duration_sent and duration < 0:
            if stop is not None:
                raise self.bad("A running time entry cannot have a stop time")
            fields["stop"] = None
        elif duration_sent and stop is not None:
            # Documented: if stop and duration are both sent, start + duration == stop.
            if start + duration != stop:
                raise self.bad("Stop and duration are inconsistent: start + duration must equal stop")
            fields["stop"] = stop
        elif duration_sent:
            fields["stop"] = start + duration
        elif stop_sent:
            fields["stop"] = stop
        elif creating:
            raise self.bad("Either duration or stop must be provided")
        if fields["stop"] is not None and fields["stop"] < start:
            raise self.bad("Stop time must be after start time")

    def entry_json(self, entry_id, workspace_id, fields):
        start, stop = fields["start"], fields["stop"]
        tag_ids = fields["tag_ids"]
        user_id = self.me["id"]
        return {
            "id": entry_id,
            "workspace_id": workspace_id,
            "project_id": fields["project_id"],
            "task_id": None,
            "billable": fields["billable"],
            "start": utc_text(start, "+00:00"),
            "stop": utc_text(stop, "+00:00") if stop is not None else None,
            "duration": stop - start if stop is not None else -1,
            "description": fields["description"],
            "tags": [self.tags[tag_id]["name"] for tag_id in tag_ids] if tag_ids is not None else None,
            "tag_ids": list(tag_ids) if tag_ids is not None else None,
            "duronly": True,
            "at": self.now(),
            "server_deleted_at": None,
            "user_id": user_id,
            "uid": user_id,
            "wid": workspace_id,
            "pid": fields["project_id"],
            "tid": None,
            "permissions": None,
        }

    def store(self, entry_id, workspace_id, fields, seq):
        entry = self.entry_json(entry_id, workspace_id, fields)
        self.entries[entry_id] = Stored(entry, workspace_id, fields["start"], fields["stop"] is None, seq, fields)
        return entry

    def create_entry(self, match, query, body):
        workspace_id = self.workspace(match["wid"])
        data = self.json_object(body)
        created_with = data.get("created_with")
        if not isinstance(created_with, str) or not created_with.strip():
            raise self.bad("created_with needs to be provided an a valid string")
        _, body_workspace = self.optional_int(data, "workspace_id", "wid")
        if body_workspace is not None and body_workspace != workspace_id:
            raise self.bad("Workspace ID in the body does not match the one in the path")
        fields = self.entry_fields(workspace_id, data, None)
        return 200, self.store(self.entry_ids.next(), workspace_id, fields, next(self.seq)), ()

    def stored_entry(self, entry_id, workspace_id=None):
        stored = self.entries.get(int(entry_id))
        if stored is None or (workspace_id is not None and stored.workspace != workspace_id):
            raise ApiError(404, "Time entry not found")
        return stored

    def update_entry(self, match, query, body):
        workspace_id = self.workspace(match["wid"])
        stored = self.stored_entry(match["id"], workspace_id)
        data = self.json_object(body)
        fields = self.entry_fields(workspace_id, data, stored.fields)
        return 200, self.store(stored.json["id"], workspace_id, fields, stored.seq), ()

    def delete_entry(self, match, query, body):
        workspace_id = self.workspace(match["wid"])
        stored = self.stored_entry(match["id"], workspace_id)
        del self.entries[stored.json["id"]]
        # Documented: "Returns only status code."
        return 200, NO_BODY, ()

    def get_entry(self, match, query, body):
        return 200, self.stored_entry(match["id"]).json, ()

    def current_entry(self, match, query, body):
        running = [stored for stored in self.entries.values() if stored.running]
        running.sort(key=lambda stored: (stored.start, stored.seq))
        return 200, running[-1].json if running else None, ()

    def list_entries(self, match, query, body):
        """Entries whose start is in [start_date, end_date), newest first."""
        start_text, end_text, before_text = first(query, "start_date"), first(query, "end_date"), first(query, "before")
        if (start_text is None) != (end_text is None):
            raise self.bad("start_date and end_date must be given together")
        since = until = None
        if start_text is not None:
            since, until = parse_day_or_instant(start_text), parse_day_or_instant(end_text)
            if since is None or until is None:
                raise self.bad("Invalid start_date or end_date, expected YYYY-MM-DD or RFC3339")
            if since > until:
                raise self.bad("start_date must be earlier than end_date")
        if before_text is not None:
            before = parse_day_or_instant(before_text)
            if before is None:
                raise self.bad("Invalid before, expected YYYY-MM-DD or RFC3339")
            until = before if until is None else min(until, before)
        selected = [
            stored for stored in self.entries.values()
            if (since is None or stored.start >= since) and (until is None or stored.start < until)
        ]
        selected.sort(key=lambda stored: (stored.start, stored.seq), reverse=True)
        return 200, [stored.json for stored in selected], ()


SERVICES = {"clockify": Clockify, "toggl": Toggl}


# ---------------------------------------------------------------------------
# Toggl's hourly quota and the clock it runs on


class Clock:
    """The fake's idea of now: real time, or a time a test set (POST /_control/clock)."""

    fixed = None

    @classmethod
    def now(cls):
        return cls.fixed if cls.fixed is not None else time.time()


class Quota:
    """Toggl Track's hourly quota per user, as its API & Webhook limits article describes it.

    Two quotas over a sliding hour: requests about a workspace (Free 30,
    Starter 240, Premium 600) and requests to /me endpoints (30 on every plan).
    A request over its quota is answered 402 and not counted; every answer
    carries X-Toggl-Quota-Remaining and X-Toggl-Quota-Resets-In (seconds
    until the oldest counted request is an hour old). A limit of None turns
    that quota off, headers included.
    """

    HOUR = 3600

    def __init__(self, workspace=None, user=None):
        self.limits = {"workspace": workspace, "user": user}
        self.sent = {"workspace": [], "user": []}
        self.refused = {"workspace": 0, "user": 0}
        self.most_in_an_hour = {"workspace": 0, "user": 0}

    def set_limits(self, spec):
        for scope in ("workspace", "user"):
            if scope in spec:
                limit = spec[scope]
                if limit is not None and (not is_int(limit) or limit < 1):
                    raise ValueError(f"{scope} must be a whole number of requests an hour, 1 or more, or null")
                self.limits[scope] = limit

    def take(self, scope):
        """Counts one request now; raises the 402 when the hour is used up. Returns the quota headers."""
        limit = self.limits[scope]
        if limit is None:
            return ()
        now = Clock.now()
        sent = [at for at in self.sent[scope] if at > now - self.HOUR]
        self.sent[scope] = sent
        if len(sent) >= limit:
            self.refused[scope] += 1
            error = ApiError(402, "You have hit your API quota. Please try again later.")
            error.headers = self.headers(scope, now)
            raise error
        sent.append(now)
        self.most_in_an_hour[scope] = max(self.most_in_an_hour[scope], len(sent))
        return self.headers(scope, now)

    def headers(self, scope, now):
        sent = self.sent[scope]
        resets_in = int(sent[0] + self.HOUR - now + 0.999) if sent else self.HOUR
        return (("X-Toggl-Quota-Remaining", str(max(0, self.limits[scope] - len(sent)))),
                ("X-Toggl-Quota-Resets-In", str(max(0, resets_in))))

    def state(self):
        now = Clock.now()
        return {
            scope: {
                "limit": self.limits[scope],
                "used": len([at for at in self.sent[scope] if at > now - self.HOUR]),
                "refused": self.refused[scope],
                "most_in_an_hour": self.most_in_an_hour[scope],
            }
            for scope in ("workspace", "user")
        }


# ---------------------------------------------------------------------------
# Failure injection and the request log


FAILURE_MODES = ("drop_after_store", "drop", "status", "retry_after", "hang", "delay")


class Failure:
    """One queued failure: which requests it hits, how often, and what happens."""

    def __init__(self, spec):
        if not isinstance(spec, dict):
            raise ValueError("a failure is a JSON object like {\"match\": \"POST .*/time-entries$\", \"mode\": \"status\", \"status\": 500}")
        unknown = set(spec) - {"match", "times", "skip", "mode", "status", "message", "seconds", "retry_after", "store"}
        if unknown:
            raise ValueError(f"unknown keys {sorted(unknown)}")
        self.match = spec.get("match")
        if not isinstance(self.match, str):
            raise ValueError("match must be a regular expression over 'METHOD /path' (no query string)")
        try:
            self.pattern = re.compile(self.match)
        except re.error as error:
            raise ValueError(f"match is not a regular expression: {error}") from None
        self.mode = spec.get("mode")
        if self.mode not in FAILURE_MODES:
            raise ValueError(f"mode must be one of {', '.join(FAILURE_MODES)}")
        self.times = spec.get("times", 1)
        self.skip = spec.get("skip", 0)
        if not is_int(self.times) or self.times < 1:
            raise ValueError("times must be a whole number of at least 1")
        if not is_int(self.skip) or self.skip < 0:
            raise ValueError("skip must be a whole number of at least 0")
        self.status = spec.get("status", 500)
        if not is_int(self.status) or not 400 <= self.status <= 599:
            raise ValueError("status must be between 400 and 599")
        self.message = spec.get("message")
        if self.message is not None and not isinstance(self.message, str):
            raise ValueError("message must be a string")
        self.seconds = spec.get("seconds", {"hang": 60, "delay": 1}.get(self.mode, 0))
        if not isinstance(self.seconds, (int, float)) or isinstance(self.seconds, bool) or self.seconds < 0:
            raise ValueError("seconds must be a number of at least 0")
        self.retry_after = spec.get("retry_after", 1)
        if not is_int(self.retry_after) or self.retry_after < 0:
            raise ValueError("retry_after must be a whole number of seconds")
        self.store = spec.get("store", False)
        if not isinstance(self.store, bool):
            raise ValueError("store must be true or false")

    def describe(self):
        return {
            "match": self.match, "mode": self.mode, "times": self.times, "skip": self.skip,
            "status": self.status, "message": self.message, "seconds": self.seconds,
            "retry_after": self.retry_after, "store": self.store,
        }


class FailureQueue:
    """Failures waiting for the requests they match, consulted in the order queued."""

    def __init__(self):
        self.lock = threading.Lock()
        self.failures = []

    def add(self, spec):
        failure = Failure(spec)
        with self.lock:
            self.failures.append(failure)
        return failure

    def take(self, method, path):
        if not self.failures:
            return None
        key = f"{method} {path}"
        with self.lock:
            for failure in self.failures:
                if not failure.pattern.search(key):
                    continue
                if failure.skip:
                    failure.skip -= 1
                    continue
                failure.times -= 1
                if failure.times == 0:
                    self.failures.remove(failure)
                return failure
        return None

    def pending(self):
        with self.lock:
            return [failure.describe() for failure in self.failures]

    def clear(self):
        with self.lock:
            self.failures.clear()


class RequestLog:
    """Every API request in arrival order; a record is filled in when it is answered.

    Records keep the same keys from the start, so serialising one while its
    request finishes on another thread is safe.
    """

    def __init__(self):
        self.lock = threading.Lock()
        self.records = []
        self.seq = itertools.count(1)

    def open(self, method, path, connection, body=None):
        record = {
            "seq": 0, "time": time.time(), "method": method, "path": path,
            "status": "pending", "failure": None, "stored_status": None,
            "connection": connection, "elapsed_ms": None, "body": body,
        }
        with self.lock:
            record["seq"] = next(self.seq)
            self.records.append(record)
        return record

    def since(self, seq):
        with self.lock:
            return [record for record in self.records if record["seq"] > seq]

    def clear(self):
        with self.lock:
            self.records = []
            self.seq = itertools.count(1)


# ---------------------------------------------------------------------------
# HTTP


class ClosedEarly(Exception):
    """The client went away before its request body arrived."""


class HttpServer(ThreadingHTTPServer):
    """A threading HTTP/1.1 server that knows its open connections, so going down can cut them."""

    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address, fake, role):
        self.fake = fake
        self.role = role
        self.connections = set()
        self.connections_lock = threading.Lock()
        super().__init__(address, RequestHandler)

    def server_bind(self):
        # HTTPServer.server_bind looks up the host name, which can stall on a machine without DNS.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = self.server_address[:2]

    def process_request(self, request, client_address):
        with self.connections_lock:
            self.connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request):
        with self.connections_lock:
            self.connections.discard(request)
        super().shutdown_request(request)

    def cut_connections(self, keep=None):
        with self.connections_lock:
            connections = [connection for connection in self.connections if connection is not keep]
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def handle_error(self, request, client_address):
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            return  # Clients that vanish mid-request are part of the tests.
        self.fake.note_error(traceback.format_exc())


class RequestHandler(BaseHTTPRequestHandler):
    """One connection; serves requests on it until either side closes it."""

    protocol_version = "HTTP/1.1"
    # An unparseable request line gets an HTTP/1.1 400, not a bare HTTP/0.9 error page.
    default_request_version = "HTTP/1.1"
    server_version = "fake-time-service/1"
    sys_version = ""
    # Headers and body go out in one write, and small replies must not wait for Nagle.
    disable_nagle_algorithm = True

    def setup(self):
        super().setup()
        self.connection_id = next(self.server.fake.connection_ids)

    def log_message(self, format, *args):
        if self.server.fake.verbose:
            sys.stderr.write("%s %s\n" % (self.address_string(), format % args))

    def do_GET(self):
        self.dispatch()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_GET

    def dispatch(self):
        fake = self.server.fake
        record = None
        try:
            split = urlsplit(self.path)
            path = split.path
            query = parse_qs(split.query, keep_blank_values=True)
            is_control = path == "/_control" or path.startswith("/_control/")
            self.started = time.monotonic()
            if not is_control and self.server.role == "api":
                # Logged from its headers on, so a request whose body never comes still shows.
                record = fake.log.open(self.command, self.path, self.connection_id)
            try:
                raw = self.read_body()
            except ValueError as error:
                self.close_connection = True
                if record is not None:
                    record["status"] = 400
                self.reply_error(400, str(error))
                return
            except ClosedEarly:
                if record is not None:
                    record["status"] = "incomplete"
                raise
            if is_control:
                self.control(path, query, Body(raw))
            elif record is None:
                self.close_connection = True
                self.reply(404, encode_json({"error": "the control port serves only /_control/ paths"}), JSON_TYPE)
            else:
                self.api(record, path, query, Body(raw))
        except ClosedEarly:
            self.close_connection = True
        except Exception:
            fake.note_error(traceback.format_exc())
            if record is not None and record["status"] == "pending":
                record["status"] = 500
            self.close_connection = True
            try:
                self.reply_error(500, "Internal Server Error")
            except OSError:
                pass

    def read_body(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            return self.read_chunked()
        length = self.headers.get("Content-Length")
        if length is None:
            return b""
        try:
            size = int(length)
        except ValueError:
            raise ValueError(f"invalid Content-Length: {length!r}") from None
        if size < 0 or size > MAX_BODY_BYTES:
            raise ValueError(f"Content-Length out of range: {size}")
        data = self.rfile.read(size)
        if len(data) < size:
            raise ClosedEarly()
        return data

    def read_chunked(self):
        chunks = []
        total = 0
        while True:
            line = self.rfile.readline(1024)
            if not line:
                raise ClosedEarly()
            try:
                size = int(line.split(b";")[0].strip(), 16)
            except ValueError:
                raise ValueError("invalid chunk size") from None
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass
                return b"".join(chunks)
            total += size
            if total > MAX_BODY_BYTES:
                raise ValueError("chunked body too large")
            chunk = self.rfile.read(size)
            if len(chunk) < size:
                raise ClosedEarly()
            chunks.append(chunk)
            self.rfile.readline(2)

    def reply(self, status, body=b"", content_type=None, headers=()):
        lines = [f"HTTP/1.1 {status} {phrase(status)}", f"Date: {self.date_time_string()}", f"Server: {self.server_version}"]
        if status == 204:
            body = b""
        else:
            lines.append(f"Content-Length: {len(body)}")
        if body and content_type:
            lines.append(f"Content-Type: {content_type}")
        lines.extend(f"{name}: {value}" for name, value in headers)
        if self.close_connection:
            lines.append("Connection: close")
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        try:
            self.wfile.write(head + body)
        except OSError:
            self.close_connection = True

    def reply_error(self, status, message):
        content_type, body = self.server.fake.service.render_error(ApiError(status, message))
        self.reply(status, body, content_type)

    # -- the API

    def api(self, record, path, query, body):
        fake = self.server.fake
        record["body"] = body.for_log()
        try:
            self.api_with_failures(fake, record, path, query, body)
        finally:
            if record["elapsed_ms"] is None:
                record["elapsed_ms"] = self.elapsed_ms()

    def elapsed_ms(self):
        return round((time.monotonic() - self.started) * 1000, 3)

    def api_with_failures(self, fake, record, path, query, body):
        if fake.down_mode == "close":
            record["status"] = "closed"
            self.close_connection = True
            return
        failure = fake.failures.take(self.command, path)
        if failure is None:
            self.send_answer(record, *self.answer(path, query, body))
            return
        record["failure"] = failure.mode
        if failure.mode == "delay":
            fake.pause(failure.seconds)
            self.send_answer(record, *self.answer(path, query, body))
        elif failure.mode == "status":
            content_type, payload = fake.service.injected_error(failure.status, failure.message)
            self.send_answer(record, failure.status, payload, content_type, ())
        elif failure.mode == "retry_after":
            content_type, payload = fake.service.injected_error(429, failure.message)
            self.send_answer(record, 429, payload, content_type, (("Retry-After", str(failure.retry_after)),))
        elif failure.mode == "drop_after_store":
            record["stored_status"] = self.answer(path, query, body)[0]
            record["status"] = "dropped"
            self.close_connection = True
        elif failure.mode == "drop":
            record["status"] = "dropped"
            self.close_connection = True
        elif failure.mode == "hang":
            if failure.store:
                record["stored_status"] = self.answer(path, query, body)[0]
            record["status"] = "hung"
            fake.pause(failure.seconds)
            self.close_connection = True

    def answer(self, path, query, body):
        """Run the request against the service: (status, body bytes, content type, headers)."""
        service = self.server.fake.service
        try:
            status, payload, headers = service.handle(self.command, path, query, body, self.headers)
        except ApiError as error:
            content_type, payload = service.render_error(error)
            return error.status, payload, content_type, error.headers
        if payload is NO_BODY:
            return status, b"", None, headers
        return status, encode_json(payload), service.content_type, headers

    def send_answer(self, record, status, payload, content_type, headers):
        # The record is complete before the client can read the reply and look at the log.
        record["status"] = status
        record["elapsed_ms"] = self.elapsed_ms()
        self.reply(status, payload, content_type, headers)

    # -- control

    def control(self, path, query, body):
        fake = self.server.fake
        try:
            status, payload = fake.control(self.command, path, query, body, self)
        except ValueError as error:
            status, payload = 400, {"error": str(error)}
        self.reply(status, encode_json(payload), JSON_TYPE)


# ---------------------------------------------------------------------------
# The program


class Listener:
    """One address that can stop listening (connections are refused) and listen again."""

    def __init__(self, fake, role, host, port):
        self.fake = fake
        self.role = role
        self.host = host
        self.port = port
        self.server = None
        self.lock = threading.Lock()

    @property
    def listening(self):
        return self.server is not None

    def start(self):
        with self.lock:
            if self.server is not None:
                return
            deadline = time.monotonic() + 5
            while True:
                try:
                    server = HttpServer((self.host, self.port), self.fake, self.role)
                    break
                except OSError as error:
                    if error.errno != errno.EADDRINUSE or time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            self.port = server.server_address[1]
            self.server = server
            threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def stop(self, keep=None):
        with self.lock:
            server, self.server = self.server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        server.cut_connections(keep)

    def cut_connections(self, keep=None):
        server = self.server
        if server is not None:
            server.cut_connections(keep)


class FakeTimeService:
    """The service, its failure queue and request log, and the two listeners."""

    def __init__(self, options):
        self.options = options
        self.verbose = options.verbose
        self.service = SERVICES[options.service](options)
        self.failures = FailureQueue()
        self.log = RequestLog()
        self.errors = []
        self.connection_ids = itertools.count(1)
        self.down_mode = None
        self.switch_lock = threading.Lock()
        self.release = threading.Event()
        self.api = Listener(self, "api", options.host, options.port)
        self.control_listener = Listener(self, "control", options.host, options.control_port)

    def start(self):
        self.api.start()
        self.control_listener.start()

    def close(self):
        self.release.set()
        self.api.stop()
        self.control_listener.stop()

    def pause(self, seconds):
        """Wait, but let reset and shutdown end every wait at once."""
        self.release.wait(seconds)

    def note_error(self, text):
        self.errors.append(text)
        if self.verbose:
            sys.stderr.write(text)

    def go_down(self, mode, keep):
        with self.switch_lock:
            if self.down_mode is not None:
                return
            self.down_mode = mode
            if mode == "refuse":
                self.api.stop(keep=keep)
            else:
                self.api.cut_connections(keep=keep)

    def go_up(self):
        with self.switch_lock:
            self.api.start()
            self.down_mode = None

    def reset(self):
        self.release.set()
        self.release = threading.Event()
        self.failures.clear()
        self.service.reset_state()
        Clock.fixed = None
        self.log.clear()
        self.errors.clear()
        self.go_up()

    def control(self, method, path, query, body, handler):
        """Answer one /_control/ request: (status, JSON payload). ValueError means 400."""
        def spec():
            if body.problem is not None:
                raise ValueError(f"the body is not JSON: {body.problem}")
            return body.value

        route = (method, path.rstrip("/"))
        if route == ("GET", "/_control/state"):
            state = self.service.snapshot()
            state["down"] = self.down_mode
            state["api_port"] = self.api.port
            state["pending_failures"] = self.failures.pending()
            state["server_errors"] = list(self.errors)
            return 200, state
        if route == ("GET", "/_control/requests"):
            since = first(query, "since") or "0"
            if not since.isdigit():
                raise ValueError("since must be a request sequence number")
            return 200, self.log.since(int(since))
        if route == ("POST", "/_control/fail"):
            specs = spec()
            failures = [self.failures.add(item) for item in (specs if isinstance(specs, list) else [specs])]
            return 200, {"queued": [failure.describe() for failure in failures]}
        if route == ("GET", "/_control/fail"):
            return 200, self.failures.pending()
        if route == ("DELETE", "/_control/fail"):
            self.failures.clear()
            return 200, {"queued": []}
        if route == ("POST", "/_control/down"):
            mode = (spec() or {}).get("mode", "refuse")
            if mode not in ("refuse", "close"):
                raise ValueError("mode must be refuse (stop listening) or close (accept, then close)")
            came_in_on_api = handler.server.role == "api"
            self.go_down(mode, keep=handler.connection if came_in_on_api else None)
            if came_in_on_api:
                handler.close_connection = True
            return 200, {"down": self.down_mode, "api_port": self.api.port}
        if route == ("POST", "/_control/up"):
            self.go_up()
            return 200, {"down": None, "api_port": self.api.port}
        if route == ("POST", "/_control/reset"):
            self.reset()
            return 200, {"reset": True}
        if route == ("POST", "/_control/clock"):
            change = spec()
            if not isinstance(change, dict) or not set(change) <= {"now", "advance"}:
                raise ValueError('the clock takes {"now": SECONDS_SINCE_EPOCH or null} or {"advance": SECONDS}')
            if "now" in change:
                if change["now"] is not None and not isinstance(change["now"], (int, float)):
                    raise ValueError("now must be seconds since the epoch, or null for real time")
                Clock.fixed = change["now"]
            if "advance" in change:
                if not isinstance(change["advance"], (int, float)):
                    raise ValueError("advance must be a number of seconds")
                Clock.fixed = Clock.now() + change["advance"]
            return 200, {"now": Clock.now(), "fixed": Clock.fixed is not None}
        if route == ("POST", "/_control/quota"):
            if not hasattr(self.service, "quota"):
                raise ValueError("only the toggl fake has an hourly quota")
            limits = spec()
            if not isinstance(limits, dict) or not set(limits) <= {"workspace", "user"}:
                raise ValueError('the quota takes {"workspace": N or null, "user": N or null}')
            with self.service.lock:
                self.service.quota.set_limits(limits)
                return 200, self.service.quota.state()
        return 404, {"error": f"no control endpoint {method} {path}", "endpoints": [
            "GET /_control/state", "GET /_control/requests?since=SEQ", "POST /_control/fail",
            "GET /_control/fail", "DELETE /_control/fail", "POST /_control/down", "POST /_control/up",
            "POST /_control/reset", "POST /_control/clock", "POST /_control/quota"]}


def parse_options(argv):
    parser = argparse.ArgumentParser(description="A local fake of the Clockify v1 or Toggl Track v9 API for trackee's tests.")
    parser.add_argument("--service", required=True, choices=sorted(SERVICES), help="Which API to play.")
    parser.add_argument("--token", default="test-token", help="The only API token (Clockify X-Api-Key, Toggl api_token) that is accepted.")
    parser.add_argument("--host", default="127.0.0.1", help="The address to listen on.")
    parser.add_argument("--port", type=int, default=0, help="The API port; 0 picks a free one, printed on the first stdout line.")
    parser.add_argument("--control-port", type=int, default=0, help="The control port, which stays up while the API is down; printed on the second line.")
    parser.add_argument("--workspace", dest="workspaces", action="append", help="A workspace to seed; repeat for more. The first is the user's default. Default: My Company.")
    parser.add_argument("--user-name", default="Ada Lovelace", help="The seeded user's name.")
    parser.add_argument("--email", default="ada@example.com", help="The seeded user's email address.")
    parser.add_argument("--quota", type=int, default=None, help="Toggl: workspace requests an hour (Free 30, Starter 240, Premium 600); default: no quota.")
    parser.add_argument("--user-quota", type=int, default=None, help="Toggl: /me requests an hour (30 on every plan); default: no quota.")
    parser.add_argument("--exit-on-stdin-eof", action="store_true", help="Exit when stdin closes, so a test that dies does not leave the server behind.")
    parser.add_argument("--verbose", action="store_true", help="Log requests and server errors on stderr.")
    options = parser.parse_args(argv)
    options.workspaces = options.workspaces or ["My Company"]
    return options


def main(argv=None):
    options = parse_options(argv)
    fake = FakeTimeService(options)
    fake.start()
    sys.stdout.write(f"listening on {options.host}:{fake.api.port}\ncontrol on {options.host}:{fake.control_listener.port}\n")
    sys.stdout.flush()
    finished = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: finished.set())
    if options.exit_on_stdin_eof:
        def watch_stdin():
            while sys.stdin.buffer.read(4096):
                pass
            finished.set()
        threading.Thread(target=watch_stdin, daemon=True).start()
    finished.wait()
    fake.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
