"""Tests for fake_time_service.py, run against the real program as a subprocess.

    python3 -m unittest Tests/Servers/test_fake_time_service.py
"""

import base64
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import unittest

SERVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_time_service.py")
TOKEN = "tok-3f9a2c"
CLOCKIFY_AUTH = {"X-Api-Key": TOKEN}
TOGGL_AUTH = {"Authorization": "Basic " + base64.b64encode(f"{TOKEN}:api_token".encode()).decode()}


class Response:
    def __init__(self, status, headers, raw):
        self.status = status
        self.headers = headers
        self.raw = raw
        try:
            self.json = json.loads(raw) if raw else None
        except ValueError:
            self.json = None


class FakeServer:
    """One fake_time_service.py process, with helpers to call its API and control port."""

    def __init__(self, service, *arguments):
        self.service = service
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, SERVER, "--service", service, "--token", TOKEN, "--port", "0", "--exit-on-stdin-eof", *arguments],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr)
        api_line = self.process.stdout.readline().decode()
        control_line = self.process.stdout.readline().decode()
        api = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+)\n", api_line)
        control = re.fullmatch(r"control on 127\.0\.0\.1:(\d+)\n", control_line)
        if not api or not control:
            self.close()
            self.stderr.seek(0)
            raise RuntimeError(f"unexpected start-up output {api_line!r} {control_line!r}: {self.stderr.read().decode()}")
        self.port = int(api[1])
        self.control_port = int(control[1])

    def close(self):
        self.process.stdin.close()
        self.process.terminate()
        self.process.wait(10)
        self.process.stdout.close()
        self.stderr.close()

    def connection(self, timeout=5):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    @staticmethod
    def send(connection, method, path, body=None, headers=None):
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        return Response(response.status, response.headers, response.read())

    def call(self, method, path, body=None, headers=None, timeout=5):
        connection = self.connection(timeout)
        try:
            return self.send(connection, method, path, body, headers)
        finally:
            connection.close()

    def api(self, method, path, body=None):
        auth = CLOCKIFY_AUTH if self.service == "clockify" else TOGGL_AUTH
        return self.call(method, path, body, auth)

    def control(self, method, path, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.control_port, timeout=10)
        try:
            return self.send(connection, method, path, body)
        finally:
            connection.close()

    def state(self):
        return self.control("GET", "/_control/state").json

    def requests(self, since=0):
        return self.control("GET", f"/_control/requests?since={since}").json

    def fail(self, **spec):
        response = self.control("POST", "/_control/fail", spec)
        assert response.status == 200, response.raw
        return response

    def reset(self):
        assert self.control("POST", "/_control/reset").status == 200


class ServerTestCase(unittest.TestCase):
    service = "clockify"

    @classmethod
    def setUpClass(cls):
        cls.server = FakeServer(cls.service)

    @classmethod
    def tearDownClass(cls):
        cls.server.close()

    def setUp(self):
        self.server.reset()

    def tearDown(self):
        self.assertEqual(self.server.state()["server_errors"], [])


class ClockifyTestCase(ServerTestCase):
    service = "clockify"

    def setUp(self):
        super().setUp()
        self.user = self.server.api("GET", "/api/v1/user").json
        self.ws = self.user["defaultWorkspace"]
        self.entries_path = f"/api/v1/workspaces/{self.ws}/time-entries"

    def create(self, start, end, description="Docs", **extra):
        response = self.server.api("POST", self.entries_path, {"start": start, "end": end, "description": description, **extra})
        self.assertEqual(response.status, 201, response.raw)
        return response.json


class TogglTestCase(ServerTestCase):
    service = "toggl"

    def setUp(self):
        super().setUp()
        self.me = self.server.api("GET", "/api/v9/me").json
        self.wid = self.me["default_workspace_id"]
        self.entries_path = f"/api/v9/workspaces/{self.wid}/time_entries"

    def create(self, start, duration, description="Docs", **extra):
        body = {"created_with": "trackee", "workspace_id": self.wid, "start": start, "duration": duration, "description": description, **extra}
        response = self.server.api("POST", self.entries_path, body)
        self.assertEqual(response.status, 200, response.raw)
        return response.json


# ---------------------------------------------------------------------------
# Clockify


class ClockifyApiTests(ClockifyTestCase):

    def test_user_and_workspaces_describe_the_seeded_account(self):
        self.assertEqual(self.user["name"], "Ada Lovelace")
        self.assertEqual(self.user["email"], "ada@example.com")
        self.assertEqual(self.user["activeWorkspace"], self.ws)
        self.assertRegex(self.user["id"], r"^[0-9a-f]{24}$")
        workspaces = self.server.api("GET", "/api/v1/workspaces").json
        self.assertEqual([(w["id"], w["name"]) for w in workspaces], [(self.ws, "My Company")])

    def test_missing_or_wrong_key_is_401_with_code_1000(self):
        expected = {"message": "Full authentication is required to access this resource", "code": 1000}
        for headers in ({}, {"X-Api-Key": "wrong"}, {"Authorization": "Bearer " + TOKEN}):
            response = self.server.call("GET", "/api/v1/user", headers=headers)
            self.assertEqual((response.status, response.json), (401, expected), headers)
        response = self.server.call("POST", self.entries_path, {"start": "2026-11-23T08:00:00Z"}, {"X-Api-Key": "wrong"})
        self.assertEqual(response.status, 401)
        self.assertEqual(self.server.state()["time_entries"], [])

    def test_create_returns_the_entry_with_id_and_time_interval(self):
        entry = self.create("2026-11-23T08:00:00Z", "2026-11-23T09:30:00Z", billable=True)
        self.assertRegex(entry["id"], r"^[0-9a-f]{24}$")
        self.assertEqual(entry, {
            "id": entry["id"], "description": "Docs", "tagIds": None, "userId": self.user["id"],
            "billable": True, "taskId": None, "projectId": None, "workspaceId": self.ws,
            "timeInterval": {"start": "2026-11-23T08:00:00Z", "end": "2026-11-23T09:30:00Z", "duration": "PT1H30M"},
            "customFieldValues": [], "type": "REGULAR", "kioskId": None, "hourlyRate": None,
            "costRate": None, "isLocked": False,
        })
        self.assertEqual(self.server.state()["time_entries"], [entry])

    def test_times_are_kept_in_utc_whole_seconds(self):
        entry = self.create("2026-11-23T09:00:00.750+01:00", "2026-11-23T08:00:45Z")
        self.assertEqual(entry["timeInterval"], {"start": "2026-11-23T08:00:00Z", "end": "2026-11-23T08:00:45Z", "duration": "PT45S"})

    def test_get_put_delete_round_trip(self):
        project = self.server.api("POST", f"/api/v1/workspaces/{self.ws}/projects", {"name": "Documentation", "billable": True}).json
        tag = self.server.api("POST", f"/api/v1/workspaces/{self.ws}/tags", {"name": "deep work"}).json
        entry = self.create("2026-11-23T08:00:00Z", "2026-11-23T09:00:00Z", projectId=project["id"], tagIds=[tag["id"]])
        self.assertEqual((entry["projectId"], entry["tagIds"], entry["billable"]), (project["id"], [tag["id"]], True))
        path = f"{self.entries_path}/{entry['id']}"
        self.assertEqual(self.server.api("GET", path).json, entry)

        # PUT replaces the whole entry: what is left out is cleared.
        replaced = self.server.api("PUT", path, {"start": "2026-11-23T08:15:00Z", "end": "2026-11-23T10:00:00Z", "description": "Docs, edited"})
        self.assertEqual(replaced.status, 200, replaced.raw)
        self.assertEqual(replaced.json["id"], entry["id"])
        self.assertEqual(replaced.json["description"], "Docs, edited")
        self.assertEqual((replaced.json["projectId"], replaced.json["tagIds"], replaced.json["billable"]), (None, None, False))
        self.assertEqual(replaced.json["timeInterval"]["duration"], "PT1H45M")
        self.assertEqual(self.server.state()["time_entries"], [replaced.json])

        deleted = self.server.api("DELETE", path)
        self.assertEqual((deleted.status, deleted.raw), (204, b""))
        self.assertEqual(self.server.state()["time_entries"], [])
        gone = self.server.api("GET", path)
        self.assertEqual((gone.status, gone.json), (404, {"message": f"TIMEENTRY with ID '{entry['id']}' not found", "code": 501}))

    def test_put_and_delete_of_an_unknown_entry_are_404(self):
        path = f"{self.entries_path}/0123456789abcdef01234567"
        put = self.server.api("PUT", path, {"start": "2026-11-23T08:00:00Z", "end": "2026-11-23T09:00:00Z"})
        delete = self.server.api("DELETE", path)
        for response in (put, delete):
            self.assertEqual((response.status, response.json), (404, {"message": "TIMEENTRY with ID '0123456789abcdef01234567' not found", "code": 501}))

    def test_put_requires_start(self):
        entry = self.create("2026-11-23T08:00:00Z", "2026-11-23T09:00:00Z")
        response = self.server.api("PUT", f"{self.entries_path}/{entry['id']}", {"end": "2026-11-23T09:00:00Z"})
        self.assertEqual((response.status, response.json), (400, {"message": "start must not be null", "code": 501}))

    def test_list_by_range_selects_entries_by_their_start_newest_first(self):
        early = self.create("2026-11-23T07:00:00Z", "2026-11-23T09:30:00Z", "early")
        at_start = self.create("2026-11-23T09:00:00Z", "2026-11-23T09:10:00Z", "at start")
        inside = self.create("2026-11-23T10:00:00Z", "2026-11-23T13:00:00Z", "inside")
        at_end = self.create("2026-11-23T12:00:00Z", "2026-11-23T12:30:00Z", "at end")
        self.create("2026-11-23T12:00:01Z", "2026-11-23T12:30:00Z", "late")
        path = f"/api/v1/workspaces/{self.ws}/user/{self.user['id']}/time-entries"
        listed = self.server.api("GET", f"{path}?start=2026-11-23T09:00:00Z&end=2026-11-23T12:00:00Z").json
        self.assertEqual([e["description"] for e in listed], ["at end", "inside", "at start"])
        pages = [self.server.api("GET", f"{path}?start=2026-11-23T09:00:00Z&end=2026-11-23T12:00:00Z&page={n}&page-size=2").json for n in (1, 2, 3)]
        self.assertEqual([[e["id"] for e in page] for page in pages], [[at_end["id"], inside["id"]], [at_start["id"]], []])
        everything = self.server.api("GET", path).json
        self.assertEqual(len(everything), 5)
        self.assertEqual(everything[-1]["id"], early["id"])
        by_text = self.server.api("GET", f"{path}?description=AT%20").json
        self.assertEqual([e["description"] for e in by_text], ["at end", "at start"])

    def test_list_defaults_to_pages_of_50_and_caps_page_size(self):
        for minute in range(55):
            self.create(f"2026-11-23T08:{minute:02d}:00Z", f"2026-11-23T08:{minute:02d}:30Z")
        path = f"/api/v1/workspaces/{self.ws}/user/{self.user['id']}/time-entries"
        self.assertEqual(len(self.server.api("GET", path).json), 50)
        self.assertEqual(len(self.server.api("GET", path + "?page=2").json), 5)
        too_big = self.server.api("GET", path + "?page-size=5001")
        self.assertEqual((too_big.status, too_big.json), (400, {"message": "page-size cannot be greater than 5000", "code": 501}))

    def test_list_for_another_user_is_404(self):
        response = self.server.api("GET", f"/api/v1/workspaces/{self.ws}/user/ffffffffffffffffffffffff/time-entries")
        self.assertEqual(response.status, 404)

    def test_malformed_bodies_are_400_with_a_message(self):
        cases = [
            (b"{not json", "JSON parse error: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
            (b"", "Required request body is missing"),
            ([], "JSON parse error: expected an object, not array"),
            ({"start": "yesterday"}, 'start must be a date-time in yyyy-MM-ddThh:mm:ssZ format, not "yesterday"'),
            ({"start": "2026-11-23T08:00:00"}, 'start must be a date-time in yyyy-MM-ddThh:mm:ssZ format, not "2026-11-23T08:00:00"'),
            ({"start": "2026-11-23T09:00:00Z", "end": "2026-11-23T08:00:00Z"}, "End time must be after start time"),
            ({"start": "2026-11-23T08:00:00Z", "projectId": "nope"}, f"Project with id nope doesn't belong to Workspace with id {self.ws}"),
            ({"start": "2026-11-23T08:00:00Z", "tagIds": "a,b"}, "tagIds must be a list of tag ids"),
            ({"start": "2026-11-23T08:00:00Z", "billable": "yes"}, "billable must be true or false"),
            ({"start": "2026-11-23T08:00:00Z", "description": 7}, "description must be a string"),
        ]
        for body, message in cases:
            response = self.server.api("POST", self.entries_path, body)
            self.assertEqual((response.status, response.json), (400, {"message": message, "code": 501}), body)
        self.assertEqual(self.server.state()["time_entries"], [])

    def test_create_without_start_or_end_starts_a_running_timer(self):
        before = int(time.time())
        response = self.server.api("POST", self.entries_path, {"description": "running"})
        self.assertEqual(response.status, 201)
        interval = response.json["timeInterval"]
        self.assertEqual((interval["end"], interval["duration"]), (None, None))
        started = time.mktime(time.strptime(interval["start"], "%Y-%m-%dT%H:%M:%SZ")) - time.timezone
        self.assertLessEqual(abs(started - before), 2)

    def test_unknown_workspace_and_route_are_404(self):
        response = self.server.api("GET", "/api/v1/workspaces/ffffffffffffffffffffffff/projects")
        self.assertEqual((response.status, response.json), (404, {"message": "WORKSPACE with ID 'ffffffffffffffffffffffff' not found", "code": 501}))
        self.assertEqual(self.server.api("GET", "/api/v1/nothing-here").status, 404)
        self.assertEqual(self.server.api("PATCH", "/api/v1/user").status, 405)

    def test_projects_filter_by_name_and_page(self):
        path = f"/api/v1/workspaces/{self.ws}/projects"
        for name in ("Documentation", "Docs site", "Website", "Internal"):
            self.assertEqual(self.server.api("POST", path, {"name": name}).status, 201)
        self.assertEqual([p["name"] for p in self.server.api("GET", path + "?name=doc").json], ["Docs site", "Documentation"])
        self.assertEqual([p["name"] for p in self.server.api("GET", path + "?name=Docs%20site&strict-name-search=true").json], ["Docs site"])
        self.assertEqual([p["name"] for p in self.server.api("GET", path + "?name=docs&strict-name-search=true").json], [])
        self.assertEqual([p["name"] for p in self.server.api("GET", path + "?page=2&page-size=3").json], ["Website"])
        duplicate = self.server.api("POST", path, {"name": "Website"})
        self.assertEqual((duplicate.status, duplicate.json), (400, {"message": "Project with that name already exists", "code": 501}))
        unnamed = self.server.api("POST", path, {"name": " "})
        self.assertEqual((unnamed.status, unnamed.json["message"]), (400, "Project name must not be empty"))

    def test_clients_and_tags_are_created_once_per_name(self):
        for kind, message in (("clients", "Client with that name already exists on workspace"), ("tags", "Tag with that name already exists on workspace")):
            path = f"/api/v1/workspaces/{self.ws}/{kind}"
            created = self.server.api("POST", path, {"name": "Acme"})
            self.assertEqual(created.status, 201)
            self.assertEqual((created.json["name"], created.json["workspaceId"], created.json["archived"]), ("Acme", self.ws, False))
            again = self.server.api("POST", path, {"name": "Acme"})
            self.assertEqual((again.status, again.json), (400, {"message": message, "code": 501}))
            self.assertEqual(self.server.api("GET", path + "?name=acm").json, [created.json])
        client = self.server.api("GET", f"/api/v1/workspaces/{self.ws}/clients").json[0]
        project = self.server.api("POST", f"/api/v1/workspaces/{self.ws}/projects", {"name": "Portal", "clientId": client["id"]}).json
        self.assertEqual((project["clientId"], project["clientName"]), (client["id"], "Acme"))


# ---------------------------------------------------------------------------
# Toggl Track


class TogglApiTests(TogglTestCase):

    def test_me_and_workspaces_describe_the_seeded_account(self):
        self.assertEqual((self.me["fullname"], self.me["email"], self.me["timezone"]), ("Ada Lovelace", "ada@example.com", "UTC"))
        workspaces = self.server.api("GET", "/api/v9/workspaces").json
        self.assertEqual([(w["id"], w["name"]) for w in workspaces], [(self.wid, "My Company")])
        self.assertEqual(self.server.api("GET", "/api/v9/me/workspaces").json, workspaces)

    def test_failed_login_is_403_as_documented(self):
        wrong = [
            {},
            {"Authorization": "Basic " + base64.b64encode(b"wrong:api_token").decode()},
            {"Authorization": "Basic " + base64.b64encode(f"{TOKEN}:password".encode()).decode()},
            {"Authorization": "Basic !!!"},
            {"Authorization": "Bearer " + TOKEN},
        ]
        for headers in wrong:
            response = self.server.call("GET", "/api/v9/me", headers=headers)
            self.assertEqual((response.status, response.json), (403, "Incorrect username and/or password"), headers)

    def test_create_requires_created_with(self):
        for created_with in (None, "", 5):
            body = {"workspace_id": self.wid, "start": "2026-11-23T08:00:00Z", "duration": 60}
            if created_with is not None:
                body["created_with"] = created_with
            response = self.server.api("POST", self.entries_path, body)
            self.assertEqual((response.status, response.json), (400, "created_with needs to be provided an a valid string"))
        self.assertEqual(self.server.state()["time_entries"], [])

    def test_create_returns_the_entry_with_id(self):
        entry = self.create("2026-11-23T08:00:00Z", 5400, billable=True, tags=["deep work"])
        tag = self.server.api("GET", f"/api/v9/workspaces/{self.wid}/tags").json[0]
        self.assertGreater(entry["id"], 2**31)
        self.assertEqual(entry, {
            "id": entry["id"], "workspace_id": self.wid, "project_id": None, "task_id": None, "billable": True,
            "start": "2026-11-23T08:00:00+00:00", "stop": "2026-11-23T09:30:00+00:00", "duration": 5400,
            "description": "Docs", "tags": ["deep work"], "tag_ids": [tag["id"]], "duronly": True,
            "at": entry["at"], "server_deleted_at": None, "user_id": self.me["id"], "uid": self.me["id"],
            "wid": self.wid, "pid": None, "tid": None, "permissions": None,
        })
        self.assertEqual(tag["name"], "deep work")

    def test_stop_alone_or_with_a_matching_duration_is_accepted(self):
        by_stop = self.server.api("POST", self.entries_path, {"created_with": "trackee", "start": "2026-11-23T08:00:00Z", "stop": "2026-11-23T08:20:00Z"})
        self.assertEqual((by_stop.status, by_stop.json["duration"]), (200, 1200))
        both = self.create("2026-11-23T08:00:00Z", 600, stop="2026-11-23T08:10:00Z")
        self.assertEqual(both["stop"], "2026-11-23T08:10:00+00:00")
        clash = self.server.api("POST", self.entries_path, {"created_with": "trackee", "start": "2026-11-23T08:00:00Z", "stop": "2026-11-23T08:10:00Z", "duration": 60})
        self.assertEqual((clash.status, clash.json), (400, "Stop and duration are inconsistent: start + duration must equal stop"))
        running = self.create("2026-11-23T08:00:00Z", -1)
        self.assertEqual((running["stop"], running["duration"]), (None, -1))
        self.assertEqual(self.server.api("GET", "/api/v9/me/time_entries/current").json, running)

    def test_put_changes_only_the_fields_it_is_sent_and_delete_returns_200(self):
        project = self.server.api("POST", f"/api/v9/workspaces/{self.wid}/projects", {"name": "Documentation"}).json
        entry = self.create("2026-11-23T08:00:00Z", 3600, project_id=project["id"], tags=["a", "b"])
        path = f"{self.entries_path}/{entry['id']}"
        edited = self.server.api("PUT", path, {"description": "Docs, edited"})
        self.assertEqual(edited.status, 200, edited.raw)
        self.assertEqual((edited.json["description"], edited.json["project_id"], edited.json["tags"], edited.json["duration"]),
                         ("Docs, edited", project["id"], ["a", "b"], 3600))
        moved = self.server.api("PUT", path, {"start": "2026-11-23T08:30:00Z"}).json
        self.assertEqual((moved["start"], moved["stop"], moved["duration"]), ("2026-11-23T08:30:00+00:00", "2026-11-23T09:00:00+00:00", 1800))
        retagged = self.server.api("PUT", path, {"tags": ["b"], "tag_action": "delete"}).json
        self.assertEqual(retagged["tags"], ["a"])
        self.assertEqual(self.server.state()["time_entries"], [retagged])
        deleted = self.server.api("DELETE", path)
        self.assertEqual((deleted.status, deleted.raw), (200, b""))
        self.assertEqual(self.server.state()["time_entries"], [])
        gone = self.server.api("GET", f"/api/v9/me/time_entries/{entry['id']}")
        self.assertEqual((gone.status, gone.json), (404, "Time entry not found"))

    def test_put_and_delete_of_an_unknown_entry_are_404(self):
        path = f"{self.entries_path}/3999999999"
        for response in (self.server.api("PUT", path, {"description": "x"}), self.server.api("DELETE", path)):
            self.assertEqual((response.status, response.json), (404, "Time entry not found"))

    def test_list_by_range_includes_start_date_and_excludes_end_date(self):
        self.create("2026-11-22T23:59:59Z", 60, "before")
        at_start = self.create("2026-11-23T00:00:00Z", 60, "at start")
        inside = self.create("2026-11-23T12:00:00Z", 60, "inside")
        self.create("2026-11-24T00:00:00Z", 60, "at end")
        listed = self.server.api("GET", "/api/v9/me/time_entries?start_date=2026-11-23&end_date=2026-11-24").json
        self.assertEqual([e["id"] for e in listed], [inside["id"], at_start["id"]])
        precise = self.server.api("GET", "/api/v9/me/time_entries?start_date=2026-11-23T12:00:00Z&end_date=2026-11-23T12:00:01%2B00:00").json
        self.assertEqual([e["description"] for e in precise], ["inside"])
        self.assertEqual(len(self.server.api("GET", "/api/v9/me/time_entries").json), 4)
        one_sided = self.server.api("GET", "/api/v9/me/time_entries?start_date=2026-11-23")
        self.assertEqual((one_sided.status, one_sided.json), (400, "start_date and end_date must be given together"))
        reversed_range = self.server.api("GET", "/api/v9/me/time_entries?start_date=2026-11-24&end_date=2026-11-23")
        self.assertEqual((reversed_range.status, reversed_range.json), (400, "start_date must be earlier than end_date"))

    def test_malformed_bodies_are_400_with_a_message(self):
        base = {"created_with": "trackee", "start": "2026-11-23T08:00:00Z", "duration": 60}
        cases = [
            (b"{", "Invalid JSON input"),
            (b"", "Invalid JSON input"),
            ({**base, "workspace_id": "7654321"}, 'Unexpected "workspace_id" type string'),
            ({**base, "workspace_id": self.wid + 1}, "Workspace ID in the body does not match the one in the path"),
            ({**base, "start": "08:00"}, 'Invalid start time: "08:00", expected RFC3339 format'),
            ({**base, "stop": "2026-11-23T07:00:00Z", "duration": None}, "Stop time must be after start time"),
            ({"created_with": "trackee", "start": "2026-11-23T08:00:00Z"}, "Either duration or stop must be provided"),
            ({**base, "project_id": 1}, "User cannot access the selected project"),
            ({**base, "tag_ids": [1]}, f"Tag with ID 1 isn't present in workspace {self.wid}"),
        ]
        for body, message in cases:
            response = self.server.api("POST", self.entries_path, body)
            self.assertEqual((response.status, response.json), (400, message), body)
        self.assertEqual(self.server.state()["time_entries"], [])

    def test_unknown_workspace_is_403_as_documented(self):
        response = self.server.api("GET", "/api/v9/workspaces/1/projects")
        self.assertEqual((response.status, response.json), (403, "User does not have access to this resource."))

    def test_projects_filter_by_name_page_and_refuse_duplicates(self):
        path = f"/api/v9/workspaces/{self.wid}/projects"
        for name in ("Documentation", "Docs site", "Website"):
            self.assertEqual(self.server.api("POST", path, {"name": name, "active": True}).status, 200)
        self.assertEqual([p["name"] for p in self.server.api("GET", path + "?name=doc").json], ["Docs site", "Documentation"])
        self.assertEqual([p["name"] for p in self.server.api("GET", path + "?page=2&per_page=2").json], ["Website"])
        self.assertEqual(self.server.api("GET", path + "?per_page=201").status, 400)
        duplicate = self.server.api("POST", path, {"name": "Website"})
        self.assertEqual((duplicate.status, duplicate.json), (400, "Name has already been taken"))

    def test_clients_and_tags(self):
        clients = f"/api/v9/workspaces/{self.wid}/clients"
        client = self.server.api("POST", clients, {"name": "Acme"}).json
        self.assertEqual((client["name"], client["wid"], client["archived"]), ("Acme", self.wid, False))
        self.assertEqual(self.server.api("GET", clients).json, [client])
        self.assertEqual(self.server.api("POST", clients, {"name": "Acme"}).json, "Name has already been taken")
        project = self.server.api("POST", f"/api/v9/workspaces/{self.wid}/projects", {"name": "Portal", "client_id": client["id"]}).json
        self.assertEqual(project["client_id"], client["id"])
        tags = f"/api/v9/workspaces/{self.wid}/tags"
        tag = self.server.api("POST", tags, {"name": "billable"}).json
        self.assertEqual((tag["name"], tag["workspace_id"]), ("billable", self.wid))
        self.assertEqual(self.server.api("POST", tags, {"name": "billable"}).json, "Tag already exists")
        entry = self.create("2026-11-23T08:00:00Z", 60, tag_ids=[tag["id"]])
        self.assertEqual(entry["tags"], ["billable"])

    def test_injected_errors_use_toggls_string_bodies_and_gateway_html(self):
        self.server.fail(match="^POST ", mode="status", status=500)
        self.server.fail(match="^POST ", mode="status", status=402)
        self.server.fail(match="^POST ", mode="status", status=503)
        body = {"created_with": "trackee", "start": "2026-11-23T08:00:00Z", "duration": 60}
        first = self.server.api("POST", self.entries_path, body)
        second = self.server.api("POST", self.entries_path, body)
        third = self.server.api("POST", self.entries_path, body)
        self.assertEqual((first.status, first.json), (500, "Internal Server Error"))
        self.assertEqual((second.status, second.json), (402, "You have hit your API quota. Please try again later."))
        self.assertEqual((third.status, third.headers["Content-Type"]), (503, "text/html"))
        self.assertIn(b"503 Service Unavailable", third.raw)
        self.assertEqual(self.server.state()["time_entries"], [])


# ---------------------------------------------------------------------------
# Failure injection, down and up, the request log


class FailureInjectionTests(ClockifyTestCase):

    def body(self, description="Docs"):
        return {"start": "2026-11-23T08:00:00Z", "end": "2026-11-23T09:00:00Z", "description": description}

    def test_drop_after_store_stores_the_entry_and_closes_without_a_response(self):
        self.server.fail(match=r"POST .*/time-entries$", mode="drop_after_store")
        connection = self.server.connection()
        with self.assertRaises(http.client.RemoteDisconnected):
            self.server.send(connection, "POST", self.entries_path, self.body(), CLOCKIFY_AUTH)
        connection.close()
        entries = self.server.state()["time_entries"]
        self.assertEqual([e["description"] for e in entries], ["Docs"])
        record = self.server.requests()[-1]
        self.assertEqual((record["method"], record["status"], record["stored_status"], record["failure"]), ("POST", "dropped", 201, "drop_after_store"))
        # The rule was used up: the next create is answered.
        self.assertEqual(self.server.api("POST", self.entries_path, self.body("again")).status, 201)
        self.assertEqual(len(self.server.state()["time_entries"]), 2)

    def test_drop_after_store_also_applies_updates_and_deletes(self):
        entry = self.create("2026-11-23T08:00:00Z", "2026-11-23T09:00:00Z")
        path = f"{self.entries_path}/{entry['id']}"
        self.server.fail(match=r"^(PUT|DELETE) ", mode="drop_after_store", times=2)
        with self.assertRaises(http.client.RemoteDisconnected):
            self.server.api("PUT", path, {**self.body("edited")})
        self.assertEqual(self.server.state()["time_entries"][0]["description"], "edited")
        with self.assertRaises(http.client.RemoteDisconnected):
            self.server.api("DELETE", path)
        self.assertEqual(self.server.state()["time_entries"], [])

    def test_drop_closes_without_storing(self):
        self.server.fail(match=r"POST .*/time-entries$", mode="drop")
        with self.assertRaises(http.client.RemoteDisconnected):
            self.server.api("POST", self.entries_path, self.body())
        self.assertEqual(self.server.state()["time_entries"], [])

    def test_status_answers_with_the_service_error_body_without_storing(self):
        expected = {
            500: (JSON := "application/json", {"message": "Internal Server Error", "code": 500}),
            401: (JSON, {"message": "Full authentication is required to access this resource", "code": 1000}),
            403: (JSON, {"message": "Access Denied", "code": 403}),
            404: (JSON, {"message": "Not Found", "code": 404}),
            400: (JSON, {"message": "Bad Request", "code": 400}),
        }
        for status, (content_type, body) in expected.items():
            self.server.fail(match="time-entries", mode="status", status=status)
            response = self.server.api("POST", self.entries_path, self.body())
            self.assertEqual((response.status, response.headers["Content-Type"], response.json), (status, content_type, body))
        for status in (502, 503):
            self.server.fail(match="time-entries", mode="status", status=status)
            response = self.server.api("POST", self.entries_path, self.body())
            self.assertEqual((response.status, response.headers["Content-Type"]), (status, "text/html"))
        self.server.fail(match="time-entries", mode="status", status=400, message="Project is archived")
        self.assertEqual(self.server.api("POST", self.entries_path, self.body()).json, {"message": "Project is archived", "code": 400})
        self.assertEqual(self.server.state()["time_entries"], [])

    def test_retry_after_answers_429_with_the_header(self):
        self.server.fail(match="time-entries", mode="retry_after", retry_after=7)
        response = self.server.api("POST", self.entries_path, self.body())
        self.assertEqual((response.status, response.headers["Retry-After"], response.json), (429, "7", {"message": "Too many requests", "code": 429}))
        self.assertEqual(self.server.state()["time_entries"], [])

    def test_hang_never_answers_and_closes_after_seconds(self):
        self.server.fail(match="time-entries", mode="hang", seconds=1.0)
        with self.assertRaises(TimeoutError):
            self.server.call("POST", self.entries_path, self.body(), CLOCKIFY_AUTH, timeout=0.3)
        self.assertEqual(self.server.requests()[-1]["status"], "hung")
        self.server.fail(match="time-entries", mode="hang", seconds=1.0)
        raw = socket.create_connection(("127.0.0.1", self.server.port))
        started = time.monotonic()
        payload = json.dumps(self.body()).encode()
        raw.sendall(f"POST {self.entries_path} HTTP/1.1\r\nHost: x\r\nX-Api-Key: {TOKEN}\r\nContent-Length: {len(payload)}\r\n\r\n".encode() + payload)
        raw.settimeout(5)
        self.assertEqual(raw.recv(100), b"")
        self.assertGreaterEqual(time.monotonic() - started, 0.9)
        raw.close()
        self.assertEqual(self.server.state()["time_entries"], [])

    def test_hang_with_store_keeps_the_entry_the_client_never_heard_about(self):
        self.server.fail(match="time-entries", mode="hang", seconds=0.5, store=True)
        with self.assertRaises(TimeoutError):
            self.server.call("POST", self.entries_path, self.body(), CLOCKIFY_AUTH, timeout=0.2)
        self.assertEqual(len(self.server.state()["time_entries"]), 1)

    def test_delay_answers_normally_after_seconds(self):
        self.server.fail(match="time-entries", mode="delay", seconds=0.4)
        started = time.monotonic()
        response = self.server.api("POST", self.entries_path, self.body())
        self.assertGreaterEqual(time.monotonic() - started, 0.4)
        self.assertEqual(response.status, 201)
        self.assertEqual(self.server.requests()[-1]["failure"], "delay")

    def test_skip_and_times_choose_which_matching_requests_fail(self):
        self.server.fail(match=r"^POST .*/time-entries$", mode="status", status=503, skip=2, times=2)
        statuses = [self.server.api("POST", self.entries_path, self.body(str(n))).status for n in range(6)]
        self.assertEqual(statuses, [201, 201, 503, 503, 201, 201])
        self.assertEqual(self.server.control("GET", "/_control/fail").json, [])

    def test_failures_match_method_and_path_without_the_query(self):
        self.server.fail(match=r"^GET .*/time-entries$", mode="status", status=500)
        self.assertEqual(self.server.api("POST", self.entries_path, self.body()).status, 201)
        self.assertEqual(self.server.api("GET", "/api/v1/user").status, 200)
        listing = f"/api/v1/workspaces/{self.ws}/user/{self.user['id']}/time-entries?start=2026-11-23T00:00:00Z"
        self.assertEqual(self.server.api("GET", listing).status, 500)

    def test_a_bad_failure_is_refused_with_a_reason(self):
        for spec, reason in (
            ({"match": "(", "mode": "drop"}, "match is not a regular expression: missing ), unterminated subpattern at position 0"),
            ({"match": "x", "mode": "explode"}, "mode must be one of drop_after_store, drop, status, retry_after, hang, delay"),
            ({"match": "x", "mode": "status", "status": 200}, "status must be between 400 and 599"),
            ({"match": "x", "mode": "drop", "times": 0}, "times must be a whole number of at least 1"),
            ({"match": "x", "mode": "drop", "colour": "red"}, "unknown keys ['colour']"),
        ):
            response = self.server.control("POST", "/_control/fail", spec)
            self.assertEqual((response.status, response.json), (400, {"error": reason}))

    def test_reset_restores_the_seed_and_clears_failures_and_the_log(self):
        self.create("2026-11-23T08:00:00Z", "2026-11-23T09:00:00Z")
        self.server.fail(match="x", mode="drop")
        self.server.reset()
        state = self.server.state()
        self.assertEqual((state["time_entries"], state["pending_failures"], self.server.requests()), ([], [], []))
        self.assertEqual(state["user"], self.user)


class TogglQuotaTests(TogglTestCase):
    """The hourly quota: a sliding hour on the fake's clock, 402 over it, the headers on every answer."""

    NOON = 1_795_435_200  # 2026-11-23T12:00:00Z

    def setUp(self):
        super().setUp()
        self.assertEqual(self.server.control("POST", "/_control/clock", {"now": self.NOON}).status, 200)
        self.assertEqual(self.server.control("POST", "/_control/quota", {"workspace": 3, "user": 2}).status, 200)
        self.projects = f"/api/v9/workspaces/{self.wid}/projects"

    def advance(self, seconds):
        self.assertEqual(self.server.control("POST", "/_control/clock", {"advance": seconds}).status, 200)

    def quota(self, response):
        return response.headers["X-Toggl-Quota-Remaining"], response.headers["X-Toggl-Quota-Resets-In"]

    def test_workspace_requests_over_the_quota_are_answered_402_until_the_oldest_is_an_hour_old(self):
        self.assertEqual(self.quota(self.server.api("GET", self.projects)), ("2", "3600"))
        self.advance(600)
        self.assertEqual(self.quota(self.server.api("GET", self.projects)), ("1", "3000"))
        self.assertEqual(self.quota(self.server.api("GET", self.projects)), ("0", "3000"))
        refused = self.server.api("GET", self.projects)
        self.assertEqual((refused.status, refused.json), (402, "You have hit your API quota. Please try again later."))
        self.assertEqual(self.quota(refused), ("0", "3000"))
        self.advance(2999)
        self.assertEqual(self.server.api("GET", self.projects).status, 402)
        self.advance(1)
        # The first request is an hour old: one more is allowed, and then the hour is full again.
        self.assertEqual(self.quota(self.server.api("GET", self.projects)), ("0", "600"))
        self.assertEqual(self.server.state()["quota"]["workspace"], {"limit": 3, "used": 3, "refused": 2, "most_in_an_hour": 3})

    def test_me_endpoints_count_against_their_own_quota(self):
        # setUp's GET /me went out before the quota was set, on real time: not counted.
        self.assertEqual(self.quota(self.server.api("GET", "/api/v9/me")), ("1", "3600"))
        self.assertEqual(self.quota(self.server.api("GET", "/api/v9/me/time_entries")), ("0", "3600"))
        self.assertEqual(self.server.api("GET", "/api/v9/me/workspaces").status, 402)
        self.assertEqual(self.quota(self.server.api("GET", self.projects)), ("2", "3600"))
        state = self.server.state()["quota"]
        self.assertEqual((state["user"]["used"], state["user"]["refused"], state["workspace"]["used"]), (2, 1, 1))

    def test_a_refused_create_stores_nothing(self):
        for _ in range(3):
            self.server.api("GET", self.projects)
        body = {"created_with": "trackee", "workspace_id": self.wid, "start": "2026-11-23T08:00:00Z", "duration": 60}
        self.assertEqual(self.server.api("POST", self.entries_path, body).status, 402)
        self.assertEqual(self.server.state()["time_entries"], [])

    def test_without_a_quota_there_are_no_headers(self):
        self.assertEqual(self.server.control("POST", "/_control/quota", {"workspace": None, "user": None}).status, 200)
        response = self.server.api("GET", self.projects)
        self.assertEqual((response.status, response.headers["X-Toggl-Quota-Remaining"]), (200, None))

    def test_bad_clock_and_quota_settings_are_refused(self):
        self.assertEqual(self.server.control("POST", "/_control/clock", {"now": "noon"}).status, 400)
        self.assertEqual(self.server.control("POST", "/_control/quota", {"workspace": 0}).status, 400)
        self.assertEqual(self.server.control("POST", "/_control/quota", {"hourly": 30}).status, 400)


class DownAndUpTests(ClockifyTestCase):

    def test_down_stops_listening_and_up_listens_again_on_the_same_port(self):
        entry = self.create("2026-11-23T08:00:00Z", "2026-11-23T09:00:00Z")
        kept_alive = self.server.connection()
        self.assertEqual(self.server.send(kept_alive, "GET", "/api/v1/user", headers=CLOCKIFY_AUTH).status, 200)
        down = self.server.control("POST", "/_control/down")
        self.assertEqual(down.json, {"down": "refuse", "api_port": self.server.port})
        with self.assertRaises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", self.server.port), timeout=2)
        with self.assertRaises((http.client.HTTPException, OSError)):
            self.server.send(kept_alive, "GET", "/api/v1/user", headers=CLOCKIFY_AUTH)
        kept_alive.close()
        self.assertEqual(self.server.state()["down"], "refuse")
        up = self.server.control("POST", "/_control/up")
        self.assertEqual(up.json, {"down": None, "api_port": self.server.port})
        self.assertEqual(self.server.api("GET", f"{self.entries_path}/{entry['id']}").json, entry)

    def test_down_and_up_can_repeat_quickly(self):
        for _ in range(20):
            self.server.control("POST", "/_control/down")
            with self.assertRaises(ConnectionRefusedError):
                socket.create_connection(("127.0.0.1", self.server.port), timeout=2)
            self.server.control("POST", "/_control/up")
            self.assertEqual(self.server.api("GET", "/api/v1/user").status, 200)

    def test_down_in_close_mode_accepts_and_closes_every_request(self):
        self.server.control("POST", "/_control/down", {"mode": "close"})
        with self.assertRaises(http.client.RemoteDisconnected):
            self.server.api("POST", self.entries_path, {"start": "2026-11-23T08:00:00Z"})
        self.assertEqual(self.server.requests()[-1]["status"], "closed")
        self.assertEqual(self.server.state()["time_entries"], [])
        self.server.control("POST", "/_control/up")
        self.assertEqual(self.server.api("GET", "/api/v1/user").status, 200)

    def test_the_api_port_also_takes_control_requests(self):
        response = self.server.call("POST", "/_control/down")
        self.assertEqual((response.status, response.headers["Connection"]), (200, "close"))
        with self.assertRaises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", self.server.port), timeout=2)
        self.server.control("POST", "/_control/up")

    def test_the_control_port_serves_only_control_paths(self):
        response = self.server.control("GET", "/api/v1/user")
        self.assertEqual((response.status, response.json), (404, {"error": "the control port serves only /_control/ paths"}))


class RequestLogTests(ClockifyTestCase):

    def test_each_request_is_logged_in_order_with_its_connection(self):
        connection = self.server.connection()
        statuses = []
        for path in ("/api/v1/user", "/api/v1/workspaces", "/api/v1/missing"):
            statuses.append(self.server.send(connection, "GET", path, headers=CLOCKIFY_AUTH).status)
        connection.close()
        self.server.call("GET", "/api/v1/user")
        log = self.server.requests()
        requests = log[-4:]
        self.assertEqual([(r["method"], r["path"], r["status"]) for r in requests], [
            ("GET", "/api/v1/user", 200), ("GET", "/api/v1/workspaces", 200), ("GET", "/api/v1/missing", 404), ("GET", "/api/v1/user", 401)])
        self.assertEqual(statuses, [200, 200, 404])
        self.assertEqual(len({r["connection"] for r in requests[:3]}), 1)
        self.assertNotEqual(requests[3]["connection"], requests[0]["connection"])
        self.assertEqual([r["seq"] for r in log], list(range(1, len(log) + 1)))
        self.assertEqual(sorted(r["time"] for r in log), [r["time"] for r in log])
        self.assertEqual([r["seq"] for r in self.server.requests(since=log[-2]["seq"])], [log[-1]["seq"]])

    def test_the_log_keeps_request_bodies_and_never_headers(self):
        self.create("2026-11-23T08:00:00Z", "2026-11-23T09:00:00Z", "logged")
        record = self.server.requests()[-1]
        self.assertEqual(record["body"], {"start": "2026-11-23T08:00:00Z", "end": "2026-11-23T09:00:00Z", "description": "logged"})
        self.assertNotIn(TOKEN, json.dumps(self.server.requests()))
        self.assertNotIn(TOKEN, json.dumps(self.server.state()))


class RobustnessTests(ClockifyTestCase):

    def raw_exchange(self, data):
        with socket.create_connection(("127.0.0.1", self.server.port), timeout=5) as raw:
            raw.sendall(data)
            chunks = []
            while True:
                chunk = raw.recv(65536)
                if not chunk:
                    return b"".join(chunks)
                chunks.append(chunk)

    def test_garbage_and_broken_requests_do_not_stop_the_server(self):
        self.assertTrue(self.raw_exchange(b"NONSENSE\r\n\r\n").startswith(b"HTTP/1.1 400"))
        self.assertTrue(self.raw_exchange(b"GET /api/v1/user HTTP/1.1\r\nContent-Length: -4\r\n\r\n").startswith(b"HTTP/1.1 400"))
        self.assertTrue(self.raw_exchange(b"BREW /api/v1/user HTTP/1.1\r\n\r\n").startswith(b"HTTP/1.1 501"))
        with socket.create_connection(("127.0.0.1", self.server.port), timeout=5) as raw:
            raw.sendall(f"POST {self.entries_path} HTTP/1.1\r\nX-Api-Key: {TOKEN}\r\nContent-Length: 500\r\n\r\n{{\"sta".encode())
        self.assertEqual(self.server.api("GET", "/api/v1/user").status, 200)
        half_sent = [record for record in self.server.requests() if record["method"] == "POST"]
        self.assertEqual([(record["status"], record["body"]) for record in half_sent], [("incomplete", None)])
        self.assertEqual(self.server.state()["time_entries"], [])

    def test_a_chunked_body_is_read(self):
        payload = json.dumps({"start": "2026-11-23T08:00:00Z", "end": "2026-11-23T08:01:00Z"}).encode()
        chunked = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (payload[:10], payload[10:])) + b"0\r\n\r\n"
        reply = self.raw_exchange(f"POST {self.entries_path} HTTP/1.1\r\nX-Api-Key: {TOKEN}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".encode() + chunked)
        self.assertTrue(reply.startswith(b"HTTP/1.1 201"), reply)
        self.assertEqual(len(self.server.state()["time_entries"]), 1)


class ThroughputTests(unittest.TestCase):

    CREATES = 2000

    def measure(self, service, path_for, body_for, auth):
        server = FakeServer(service)
        try:
            connection = server.connection()
            path = path_for(server)
            started = time.perf_counter()
            for n in range(self.CREATES):
                response = server.send(connection, "POST", path, body_for(n), auth)
                if response.status not in (200, 201):
                    self.fail(response.raw)
            elapsed = time.perf_counter() - started
            connection.close()
            self.assertEqual(len(server.state()["time_entries"]), self.CREATES)
            creates = [record for record in server.requests() if record["method"] == "POST"]
            self.assertEqual(len(creates), self.CREATES)
            self.assertEqual(len({record["connection"] for record in creates}), 1)
        finally:
            server.close()
        rate = self.CREATES / elapsed
        print(f"\n{service}: {self.CREATES} creates on one keep-alive connection in {elapsed:.2f} s = {rate:.0f} creates/s", file=sys.stderr)
        self.assertGreater(rate, 500)

    def test_clockify_accepts_more_than_500_creates_a_second(self):
        def path_for(server):
            ws = server.api("GET", "/api/v1/user").json["defaultWorkspace"]
            return f"/api/v1/workspaces/{ws}/time-entries"

        def body_for(n):
            start = 1_795_000_000 + n * 3600
            return {"start": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start)),
                    "end": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + 1800)), "description": f"entry {n}"}

        self.measure("clockify", path_for, body_for, CLOCKIFY_AUTH)

    def test_toggl_accepts_more_than_500_creates_a_second(self):
        wid = {}

        def path_for(server):
            wid["id"] = server.api("GET", "/api/v9/me").json["default_workspace_id"]
            return f"/api/v9/workspaces/{wid['id']}/time_entries"

        def body_for(n):
            start = 1_795_000_000 + n * 3600
            return {"created_with": "trackee", "workspace_id": wid["id"], "duration": 1800,
                    "start": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start)), "description": f"entry {n}"}

        self.measure("toggl", path_for, body_for, TOGGL_AUTH)


if __name__ == "__main__":
    unittest.main()
