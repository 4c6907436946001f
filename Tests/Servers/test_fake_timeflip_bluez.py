"""Tests for fake_timeflip_bluez.py, run as a subprocess on a private dbus-daemon.

    /usr/bin/python3 -m unittest Tests/Servers/test_fake_timeflip_bluez.py

Debian's python3 is needed: it has dbus-python and PyGObject.
"""

import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import dbus
import dbus.bus
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

DBusGMainLoop(set_as_default=True)

FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_timeflip_bluez.py")
T0 = 1_795_500_000  # 0x6B0527E0
DEVICE_PATH = "/org/bluez/hci0/dev_0C_61_CF_C7_77_71"
SERVICE_PATH = DEVICE_PATH + "/service000b"
DEVICE = "org.bluez.Device1"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"
PROPS = "org.freedesktop.DBus.Properties"
CONTROL = "org.trackee.FakeCube1"


def base(short):
    return "0000%04x-0000-1000-8000-00805f9b34fb" % short


def tf(short):
    return "f119%04x-71a4-11e6-bdf4-0800200c9a66" % short


EVENTS, FACETS, COMMAND_RESULT, COMMAND = tf(0x6F51), tf(0x6F52), tf(0x6F53), tf(0x6F54)
DOUBLE_TAP, SYSTEM_STATE, PASSWORD, HISTORY = tf(0x6F55), tf(0x6F56), tf(0x6F57), tf(0x6F58)
BATTERY_LEVEL = base(0x2A19)

# Every GATT object, in the order the fake exports them: path, interface,
# and for characteristics the UUID and flags.
GATT = [
    (DEVICE_PATH + "/service0001", "org.bluez.GattService1", base(0x1800), None),
    (DEVICE_PATH + "/service0001/char0002", CHARACTERISTIC, base(0x2A00), ["read"]),
    (DEVICE_PATH + "/service0004", "org.bluez.GattService1", base(0x180A), None),
    (DEVICE_PATH + "/service0004/char0005", CHARACTERISTIC, base(0x2A26), ["read"]),
    (DEVICE_PATH + "/service0007", "org.bluez.GattService1", base(0x180F), None),
    (DEVICE_PATH + "/service0007/char0008", CHARACTERISTIC, BATTERY_LEVEL, ["read", "notify"]),
    (DEVICE_PATH + "/service0007/char0008/desc000a", "org.bluez.GattDescriptor1", base(0x2902), None),
    (SERVICE_PATH, "org.bluez.GattService1", tf(0x6F50), None),
    (SERVICE_PATH + "/char000c", CHARACTERISTIC, EVENTS, ["read", "notify"]),
    (SERVICE_PATH + "/char000c/desc000e", "org.bluez.GattDescriptor1", base(0x2902), None),
    (SERVICE_PATH + "/char000f", CHARACTERISTIC, FACETS, ["read", "notify"]),
    (SERVICE_PATH + "/char000f/desc0011", "org.bluez.GattDescriptor1", base(0x2902), None),
    (SERVICE_PATH + "/char0012", CHARACTERISTIC, COMMAND_RESULT, ["read"]),
    (SERVICE_PATH + "/char0014", CHARACTERISTIC, COMMAND, ["read", "write"]),
    (SERVICE_PATH + "/char0016", CHARACTERISTIC, DOUBLE_TAP, ["notify"]),
    (SERVICE_PATH + "/char0016/desc0018", "org.bluez.GattDescriptor1", base(0x2902), None),
    (SERVICE_PATH + "/char0019", CHARACTERISTIC, SYSTEM_STATE, ["read", "notify"]),
    (SERVICE_PATH + "/char0019/desc001b", "org.bluez.GattDescriptor1", base(0x2902), None),
    (SERVICE_PATH + "/char001c", CHARACTERISTIC, PASSWORD, ["write"]),
    (SERVICE_PATH + "/char001e", CHARACTERISTIC, HISTORY, ["read", "write", "notify"]),
    (SERVICE_PATH + "/char001e/desc0020", "org.bluez.GattDescriptor1", base(0x2902), None),
]
PATH_OF = {uuid: path for path, interface, uuid, flags in GATT if interface == CHARACTERISTIC}
BASE_OBJECTS = ["/org/bluez", "/org/bluez/hci0", DEVICE_PATH]


def plain(value):
    """A D-Bus value as plain Python; byte arrays become bytes."""
    if isinstance(value, dbus.Array) and value.signature == "y":
        return bytes(value)
    if isinstance(value, (list, dbus.Array)):
        return [plain(v) for v in value]
    if isinstance(value, (dict, dbus.Dictionary)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.Byte, dbus.UInt16, dbus.UInt32, dbus.UInt64, dbus.Int16, dbus.Int32, dbus.Int64)):
        return int(value)
    if isinstance(value, (dbus.String, dbus.ObjectPath)):
        return str(value)
    if isinstance(value, dbus.Struct):
        return tuple(plain(v) for v in value)
    return value


def record(number, side, start, duration, previous=None):
    """A history record as the protocol lays it out, big-endian."""
    head = number.to_bytes(4, "big") + bytes([side]) + start.to_bytes(8, "big") + duration.to_bytes(4, "big")
    return head if previous is None else head + previous.to_bytes(3, "big")


class PrivateBus:
    """A dbus-daemon of its own, its socket in a temporary directory."""

    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="trackee-cube-")
        # The repository's private bus (Tests/Fixtures/private-bus.conf),
        # on a socket in this directory.
        config = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "private-bus.conf")
        self.daemon = subprocess.Popen(["dbus-daemon", "--config-file=" + config,
                                        "--address=unix:path=" + os.path.join(self.directory, "bus"), "--print-address", "--nofork"],
                                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.address = self.daemon.stdout.readline().decode().strip()
        if not self.address:
            self.close()
            raise RuntimeError("dbus-daemon printed no address")

    def close(self):
        if self.daemon.poll() is None:
            self.daemon.kill()
        self.daemon.wait(10)
        self.daemon.stdout.close()
        shutil.rmtree(self.directory, ignore_errors=True)


class Fake:
    """One fake_timeflip_bluez.py process on `address`."""

    def __init__(self, address, *arguments, environment=None):
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, FAKE, "--bus", address, "--exit-on-stdin-eof", *arguments],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, env=environment)
        ready, _, _ = select.select([self.process.stdout], [], [], 20)
        line = self.process.stdout.readline().decode() if ready else ""
        if line != "ready\n":
            self.close()
            raise RuntimeError(f"the fake said {line!r}: {self.errors()}")

    def errors(self):
        self.stderr.seek(0)
        return self.stderr.read().decode()

    def close(self):
        self.process.stdin.close()
        if self.process.poll() is None:
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process.stdout.close()
        self.stderr.close()


class CubeTest(unittest.TestCase):
    """A private bus, the fake on it, and a client connection that records signals."""

    arguments = ("--clock", str(T0))

    def setUp(self):
        self.bus = PrivateBus()
        self.addCleanup(self.bus.close)
        self.fake = Fake(self.bus.address, *self.arguments)
        self.addCleanup(self.fake.close)
        self.connection = dbus.bus.BusConnection(self.bus.address)
        self.addCleanup(self.connection.close)
        self.signals = []
        self.connection.add_signal_receiver(self.heard, member_keyword="member", path_keyword="path",
                                            interface_keyword="interface")

    def heard(self, *arguments, member=None, path=None, interface=None):
        arguments, path = [plain(a) for a in arguments], str(path)
        if member == "PropertiesChanged":
            self.signals.append(("changed", path, arguments[0], arguments[1]))
        elif member == "InterfacesAdded":
            self.signals.append(("added", arguments[0], sorted(arguments[1])))
        elif member == "InterfacesRemoved":
            self.signals.append(("removed", arguments[0], arguments[1]))
        elif member == "Disconnected" and interface == DEVICE:
            self.signals.append(("disconnected", path, arguments[0], arguments[1]))
        elif member == "NameOwnerChanged" and arguments[0] == "org.bluez":
            self.signals.append(("owner", arguments[1], arguments[2]))

    # -- calls

    def call(self, name, path, interface, method, *arguments):
        proxy = self.connection.get_object(name, path, introspect=False)
        return plain(proxy.get_dbus_method(method, interface)(*arguments))

    def control(self, method, *arguments):
        """Calls the fake's control interface, its signatures read by introspection."""
        if not hasattr(self, "controller"):
            self.controller = self.connection.get_object("org.trackee.FakeCube", "/org/trackee/cube")
        return plain(self.controller.get_dbus_method(method, CONTROL)(*arguments))

    def bluez(self, path, interface, method, *arguments):
        return self.call("org.bluez", path, interface, method, *arguments)

    def managed(self):
        return self.bluez("/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")

    def connect(self):
        self.bluez(DEVICE_PATH, DEVICE, "Connect")

    def read(self, uuid):
        return self.bluez(PATH_OF[uuid], CHARACTERISTIC, "ReadValue", dbus.Dictionary({}, signature="sv"))

    def write(self, uuid, value):
        self.bluez(PATH_OF[uuid], CHARACTERISTIC, "WriteValue", dbus.ByteArray(bytes(value)),
                   dbus.Dictionary({}, signature="sv"))

    def notify(self, uuid):
        self.bluez(PATH_OF[uuid], CHARACTERISTIC, "StartNotify")

    def authorize(self):
        self.connect()
        self.write(PASSWORD, b"000000")

    def state(self, key):
        return self.control("State")[key]

    def assertError(self, name, message, function, *arguments):
        with self.assertRaises(dbus.exceptions.DBusException) as caught:
            function(*arguments)
        self.assertEqual((caught.exception.get_dbus_name(), caught.exception.get_dbus_message()), (name, message))

    # -- signals

    def pump(self):
        context = GLib.MainContext.default()
        while context.iteration(False):
            pass

    def settle(self):
        """Lets every signal the fake sent so far arrive: the answer to a call
        to org.bluez comes after all it sent before on that connection."""
        try:
            self.bluez("/", "org.freedesktop.DBus.Introspectable", "Introspect")
        except dbus.exceptions.DBusException:
            self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId")
        for _ in range(3):
            self.pump()

    def wait_for(self, predicate, seconds=5):
        deadline = time.monotonic() + seconds
        while not predicate():
            if time.monotonic() > deadline:
                self.fail(f"timed out; signals: {self.signals}")
            self.pump()
            time.sleep(0.005)

    def values(self, uuid):
        """The Value changes of a characteristic heard so far."""
        return [s[3]["Value"] for s in self.signals
                if s[0] == "changed" and s[1] == PATH_OF[uuid] and "Value" in s[3]]

    def take(self):
        """The signals heard so far, and forgets them."""
        self.settle()
        taken, self.signals = self.signals, []
        return taken


class Discovery(CubeTest):
    def test_a_paired_cube_before_its_first_connection_has_no_gatt_objects(self):
        objects = self.managed()
        self.assertEqual(sorted(objects), BASE_OBJECTS)
        self.assertEqual(objects["/org/bluez"], {"org.bluez.AgentManager1": {}})
        adapter = objects["/org/bluez/hci0"]["org.bluez.Adapter1"]
        self.assertEqual((adapter["Address"], adapter["Powered"], adapter["Discovering"]),
                         ("00:1A:7D:DA:71:13", True, False))
        self.assertEqual(objects[DEVICE_PATH], {DEVICE: {
            "Address": "0C:61:CF:C7:77:71", "AddressType": "public", "Name": "TimeFlip2", "Alias": "TimeFlip2",
            "Paired": True, "Bonded": True, "Trusted": False, "Blocked": False, "LegacyPairing": False,
            "Connected": False, "ServicesResolved": False, "Adapter": "/org/bluez/hci0",
            "UUIDs": [base(0x1800), base(0x180A), base(0x180F), tf(0x6F50)],
        }})

    def test_connect_exports_the_gatt_tree_then_resolves_services(self):
        self.connect()
        self.wait_for(lambda: len(self.signals) == 24)
        self.assertEqual(self.take(), [("changed", DEVICE_PATH, DEVICE, {"Connected": True})]
                         + [("added", path, [interface]) for path, interface, _, _ in GATT]
                         + [("changed", DEVICE_PATH, DEVICE, {"ServicesResolved": True}),
                            ("added", DEVICE_PATH, ["org.bluez.Battery1"])])
        objects = self.managed()
        self.assertEqual(sorted(objects), sorted(BASE_OBJECTS + [g[0] for g in GATT]))
        self.assertEqual(objects[DEVICE_PATH]["org.bluez.Battery1"], {"Percentage": 90})
        self.assertEqual(objects[SERVICE_PATH]["org.bluez.GattService1"], {
            "UUID": tf(0x6F50), "Device": DEVICE_PATH, "Primary": True, "Includes": [], "Handle": 0x0B})
        self.assertEqual(objects[SERVICE_PATH + "/char001e"][CHARACTERISTIC], {
            "UUID": HISTORY, "Service": SERVICE_PATH, "Flags": ["read", "write", "notify"], "Handle": 0x1E,
            "Notifying": False})
        self.assertEqual(objects[SERVICE_PATH + "/char001e/desc0020"]["org.bluez.GattDescriptor1"], {
            "UUID": base(0x2902), "Characteristic": SERVICE_PATH + "/char001e", "Handle": 0x20})
        for path, interface, uuid, flags in GATT:
            if interface == CHARACTERISTIC:
                properties = objects[path][CHARACTERISTIC]
                self.assertEqual((properties["UUID"], properties["Flags"], "Notifying" in properties),
                                 (uuid, flags, "notify" in flags), path)
            elif interface == "org.bluez.GattService1":
                self.assertEqual(objects[path][interface]["UUID"], uuid)

    def test_a_read_caches_the_value_and_says_so_as_bluetoothd_does(self):
        self.connect()
        self.take()
        self.assertEqual(self.read(BATTERY_LEVEL), b"\x5a")
        self.wait_for(lambda: self.signals)
        self.assertEqual(self.take(), [("changed", PATH_OF[BATTERY_LEVEL], CHARACTERISTIC, {"Value": b"\x5a"})])
        self.assertEqual(self.managed()[PATH_OF[BATTERY_LEVEL]][CHARACTERISTIC]["Value"], b"\x5a")
        self.assertEqual(self.read(base(0x2A26)), b"TFv4.3")
        self.assertEqual(self.read(base(0x2A00)), b"TimeFlip2")


class Password(CubeTest):
    def test_facets_read_zero_until_the_right_password_and_only_then_notify(self):
        self.connect()
        self.notify(FACETS)
        self.assertEqual(self.read(FACETS), b"\x00")
        self.write(PASSWORD, b"123456")
        self.assertEqual(self.read(COMMAND_RESULT), b"\x02")
        self.assertEqual(self.read(FACETS), b"\x00")
        self.assertFalse(self.state("authorized"))
        self.take()
        self.assertTrue(self.control("Flip", 4, T0 + 60))
        self.settle()
        self.assertEqual(self.values(FACETS), [])
        self.write(PASSWORD, b"000000")
        self.assertEqual(self.read(COMMAND_RESULT), b"\x01")
        self.assertEqual(self.read(FACETS), b"\x04")
        self.take()
        self.assertTrue(self.control("Flip", 7, T0 + 120))
        self.wait_for(lambda: self.values(FACETS))
        self.assertEqual(self.take(), [("changed", PATH_OF[FACETS], CHARACTERISTIC, {"Value": b"\x07"})])
        self.assertEqual(self.control("Written", PASSWORD), [b"123456", b"000000"])

    def test_the_password_is_asked_again_after_a_reconnection(self):
        self.authorize()
        self.assertEqual(self.read(FACETS), b"\x01")
        self.bluez(DEVICE_PATH, DEVICE, "Disconnect")
        self.connect()
        self.assertEqual(self.read(FACETS), b"\x00")
        self.write(PASSWORD, b"000000")
        self.assertEqual(self.read(FACETS), b"\x01")

    def test_the_expected_password_is_set_by_the_test_or_by_command_0x30(self):
        self.control("SetPassword", "424242")
        self.connect()
        self.write(PASSWORD, b"000000")
        self.assertEqual(self.read(COMMAND_RESULT), b"\x02")
        self.write(PASSWORD, b"42424")
        self.assertEqual(self.read(COMMAND_RESULT), b"\x02")
        self.write(PASSWORD, b"424242")
        self.assertEqual(self.read(COMMAND_RESULT), b"\x01")
        self.write(COMMAND, b"\x30abcdef")
        self.assertEqual(self.read(COMMAND), b"\x30\x02")
        self.assertEqual(self.state("password"), "abcdef")


class Commands(CubeTest):
    def command(self, value):
        self.write(COMMAND, value)
        return self.read(COMMAND), self.read(COMMAND_RESULT)

    def test_commands_are_refused_before_the_password(self):
        self.connect()
        self.assertEqual(self.read(COMMAND), b"\x00\x00")
        self.assertEqual(self.command(b"\x10"), (b"\x10\x01", b""))
        self.assertEqual(self.command(b"\x06\x01"), (b"\x06\x01", b""))
        self.assertFalse(self.state("paused"))

    def test_the_clock_is_read_with_0x07_and_set_with_0x08(self):
        self.authorize()
        self.assertEqual(self.command(b"\x07"), (b"\x07\x02", bytes.fromhex("07000000006b0527e0")))
        self.write(COMMAND, b"\x08" + (T0 + 3600).to_bytes(8, "big"))
        self.assertEqual(self.read(COMMAND), b"\x08\x02")
        self.assertEqual(self.command(b"\x07"), (b"\x07\x02", bytes.fromhex("07000000006b0535f0")))
        self.assertEqual(self.state("clock"), T0 + 3600)
        self.write(COMMAND, b"\x08\x01\x02")
        self.assertEqual(self.read(COMMAND), b"\x08\x01")
        self.assertEqual(self.state("clock"), T0 + 3600)

    def test_the_test_moves_the_clock(self):
        self.control("AdvanceClock", 90)
        self.assertEqual(self.state("clock"), T0 + 90)
        self.control("SetClock", T0 - 10)
        self.assertEqual((self.state("clock"), self.state("clock_running")), (T0 - 10, False))
        self.control("RunClock")
        self.assertTrue(self.state("clock_running"))
        self.assertIn(self.state("clock") - (T0 - 10), (0, 1))

    def test_status_lock_pause_and_auto_pause(self):
        self.authorize()
        self.assertEqual(self.command(b"\x10"), (b"\x10\x02", b"\x02\x02\x00\x00"))
        self.assertEqual(self.command(b"\x06\x01")[0], b"\x06\x02")
        self.assertEqual(self.command(b"\x04\x01")[0], b"\x04\x02")
        self.assertEqual(self.command(b"\x05\x01\x2c")[0], b"\x05\x02")
        self.assertEqual(self.command(b"\x10"), (b"\x10\x02", b"\x01\x01\x01\x2c"))
        self.assertFalse(self.control("Flip", 3, T0 + 30))
        self.assertEqual(self.state("facet"), 1)
        self.assertEqual(self.command(b"\x04\x02")[0], b"\x04\x02")
        self.assertTrue(self.control("Flip", 3, T0 + 40))
        self.assertEqual(self.state("facet"), 3)
        self.assertEqual(self.command(b"\x04\x03")[0], b"\x04\x01")

    def test_unknown_and_out_of_range_commands_fail(self):
        self.authorize()
        self.assertEqual(self.command(b"\x42")[0], b"\x42\x01")
        self.assertEqual(self.command(b"\x09\x00")[0], b"\x09\x01")
        self.assertEqual(self.command(b"\x09\x32")[0], b"\x09\x02")
        self.assertEqual(self.command(b"\x0a\x3d")[0], b"\x0a\x01")
        self.assertEqual(self.command(b"\x0a\x3c")[0], b"\x0a\x02")
        self.assertEqual(self.command(b"\x11\x19\x00\x01\x00\x02\x00\x03")[0], b"\x11\x01")
        self.assertEqual((self.state("brightness"), self.state("blink")), (50, 60))

    def test_task_timer_double_tap_settings_and_name(self):
        self.authorize()
        self.assertEqual(self.command(b"\x13\x03\x01" + (1500).to_bytes(4, "big"))[0], b"\x13\x02")
        self.control("Flip", 3, T0 + 100)
        self.control("SetClock", T0 + 160)
        self.assertEqual(self.command(b"\x14\x03"), (b"\x14\x02", bytes.fromhex("140301000005dc0000003c")))
        self.assertEqual(self.command(b"\x14\x04"), (b"\x14\x02", bytes.fromhex("1404000000000000000000")))
        self.assertEqual(self.command(b"\x17"), (b"\x17\x02", bytes.fromhex("173a283b0a3c143d50")))
        self.assertEqual(self.command(b"\x16\x3a\x01\x3b\x02\x3c\x03\x3d\x04")[0], b"\x16\x02")
        self.assertEqual(self.command(b"\x17"), (b"\x17\x02", bytes.fromhex("173a013b023c033d04")))
        self.assertEqual(self.command(b"\x15\x04Desk")[0], b"\x15\x02")
        self.assertEqual(self.read(base(0x2A00)), b"Desk")

    def test_factory_reset_erases_history_and_asks_for_time(self):
        self.control("Flip", 2, T0 + 30)
        self.authorize()
        self.notify(SYSTEM_STATE)
        self.assertEqual(self.state("history_count"), 1)
        self.assertEqual(self.command(b"\xff")[0], b"\xff\x02")
        self.assertEqual((self.state("history_count"), self.state("next_event"), self.state("password")),
                         (0, 1, "000000"))
        self.wait_for(lambda: self.values(SYSTEM_STATE))
        self.write(COMMAND, b"\x08" + T0.to_bytes(8, "big"))
        self.wait_for(lambda: len(self.values(SYSTEM_STATE)) == 2)
        self.assertEqual(self.values(SYSTEM_STATE), [b"\x01\x00\x00\x00", b"\x00\x00\x00\x00"])

    def test_the_control_resets_as_the_command_does(self):
        self.control("Flip", 2, T0 + 30)
        self.control("Flip", 3, T0 + 60)
        self.assertEqual((self.state("history_count"), self.state("next_event")), (2, 3))
        self.control("FactoryReset")
        self.assertEqual((self.state("history_count"), self.state("next_event")), (0, 1))
        self.control("Flip", 4, T0 + 90)
        self.assertEqual(self.control("History"), [(1, 3, T0 + 60, 30)])


class SystemState(CubeTest):
    def test_time_sync_is_required_then_settled_by_setting_the_time(self):
        self.authorize()
        self.notify(SYSTEM_STATE)
        self.assertEqual(self.read(SYSTEM_STATE), b"\x00\x00\x00\x00")
        self.take()
        self.control("RequireTimeSync")
        self.wait_for(lambda: self.values(SYSTEM_STATE))
        self.assertEqual(self.read(SYSTEM_STATE), b"\x02\x01\x00\x00")
        self.write(COMMAND, b"\x08" + (T0 + 5).to_bytes(8, "big"))
        self.wait_for(lambda: len(self.values(SYSTEM_STATE)) == 3)
        self.assertEqual(self.values(SYSTEM_STATE), [b"\x02\x01\x00\x00", b"\x02\x01\x00\x00", b"\x00\x00\x00\x00"])

    def test_any_state_can_be_set_and_each_sync_request_is_settled_by_its_command(self):
        self.authorize()
        self.control("SetSystemState", dbus.ByteArray(b"\x02\x03\x02\x01"))
        self.assertEqual(self.read(SYSTEM_STATE), b"\x02\x03\x02\x01")
        self.write(COMMAND, b"\x0a\x10")
        self.assertEqual(self.read(SYSTEM_STATE), b"\x02\x03\x02\x01")
        self.write(COMMAND, b"\x09\x10")
        self.assertEqual(self.read(SYSTEM_STATE), b"\x00\x00\x02\x01")

    def test_started_with_time_sync_required(self):
        self.fake.close()
        self.fake = Fake(self.bus.address, "--clock", str(T0), "--time-sync-required")
        self.authorize()
        self.assertEqual(self.read(SYSTEM_STATE), b"\x02\x01\x00\x00")


class History(CubeTest):
    def flips(self):
        """Five intervals, made while the cube is not connected; the second is 3 s."""
        self.assertTrue(self.control("Flip", 2, T0 + 600))
        self.assertTrue(self.control("Flip", 3, T0 + 603))
        self.assertTrue(self.control("Flip", 5, T0 + 1800))
        self.assertTrue(self.control("DoubleTap", T0 + 2000))
        self.assertFalse(self.control("DoubleTap", T0 + 2300))

    def stream(self, request):
        self.take()
        self.write(HISTORY, request)
        self.wait_for(lambda: any(v[:17] == bytes(17) for v in self.values(HISTORY)))
        return self.values(HISTORY)

    def test_the_cube_keeps_every_interval_with_its_side(self):
        self.flips()
        self.assertEqual(self.control("History"), [
            (1, 1, T0, 600), (2, 2, T0 + 600, 3), (3, 3, T0 + 603, 1197), (4, 5, T0 + 1800, 200),
            (5, 133, T0 + 2000, 300)])
        self.assertEqual((self.state("facet"), self.state("paused"), self.state("interval_start")),
                         (5, False, T0 + 2300))

    def test_request_0x02_streams_intervals_of_5_s_or_more_then_zeros_and_the_last_number(self):
        self.flips()
        self.authorize()
        self.notify(HISTORY)
        self.assertEqual(self.stream(b"\x02\x00\x00\x00\x00"), [
            bytes.fromhex("00000001" "01" "000000006b0527e0" "00000258" "000000"),
            record(3, 3, T0 + 603, 1197, previous=1),
            record(4, 5, T0 + 1800, 200, previous=3),
            record(5, 133, T0 + 2000, 300, previous=4),
            bytes(17) + b"\x00\x00\x05",
        ])
        self.assertEqual(self.stream(b"\x02\x00\x00\x00\x04"), [
            record(4, 5, T0 + 1800, 200, previous=0), record(5, 133, T0 + 2000, 300, previous=4),
            bytes(17) + b"\x00\x00\x05"])
        self.assertEqual(self.stream(b"\x02\x00\x00\x00\x06"), [bytes(20)])
        self.assertEqual(self.read(HISTORY), bytes(20))

    def test_request_0x01_puts_one_record_in_the_value_without_notifying(self):
        self.flips()
        self.authorize()
        self.notify(HISTORY)
        self.take()
        self.write(HISTORY, b"\x01\x00\x00\x00\x02")
        self.settle()
        self.assertEqual(self.values(HISTORY), [])
        self.assertEqual(self.read(HISTORY), record(2, 2, T0 + 600, 3))
        self.write(HISTORY, b"\x01\xff\xff\xff\xff")
        self.assertEqual(self.read(HISTORY), record(5, 133, T0 + 2000, 300))
        self.write(HISTORY, b"\x01\x00\x00\x00\x09")
        self.assertEqual(self.read(HISTORY), bytes(20))

    def test_history_requests_are_ignored_before_the_password_and_when_too_short(self):
        self.flips()
        self.connect()
        self.notify(HISTORY)
        self.write(HISTORY, b"\x02\x00\x00\x00\x00")
        self.write(PASSWORD, b"000000")
        self.write(HISTORY, b"\x02\x00\x00\x00")
        self.write(HISTORY, b"\x03\x00\x00\x00\x00")
        self.settle()
        self.assertEqual(self.values(HISTORY), [])
        self.assertEqual(self.read(HISTORY), b"")

    def test_the_stream_is_paced_and_stops_with_the_link(self):
        self.fake.close()
        self.fake = Fake(self.bus.address, "--clock", str(T0), "--notify-interval-ms", "500")
        self.flips()
        self.authorize()
        self.notify(HISTORY)
        self.take()
        self.write(HISTORY, b"\x02\x00\x00\x00\x00")
        self.wait_for(lambda: self.values(HISTORY))
        self.control("DropConnection")
        time.sleep(1.5)
        self.settle()
        self.assertEqual(self.values(HISTORY), [record(1, 1, T0, 600, previous=0)])

    def test_a_scripted_stream_replaces_the_next_answer_only(self):
        self.flips()
        self.authorize()
        self.notify(HISTORY)
        truncated = [b"\x00\x00\x00\x07\x02", record(9, 0, T0, 9, previous=8), bytes(17) + b"\x00\x00\x09"]
        self.control("SetHistoryStream", dbus.Array([dbus.ByteArray(p) for p in truncated], signature="ay"))
        self.assertEqual(self.stream(b"\x02\x00\x00\x00\x00"), truncated)
        self.assertEqual(len(self.stream(b"\x02\x00\x00\x00\x00")), 5)

    def test_records_the_test_adds_come_out_as_stored(self):
        self.control("AddHistory", 10, 4, T0 + 5000, 60)
        self.control("AddHistory", 11, 6, T0 + 4000, 600)
        self.control("AddHistory", 7, 200, T0 + 4600, 0xFFFFFFFF)
        self.authorize()
        self.notify(HISTORY)
        self.assertEqual(self.stream(b"\x02\x00\x00\x00\x00"), [
            record(10, 4, T0 + 5000, 60, previous=0), record(11, 6, T0 + 4000, 600, previous=10),
            record(7, 200, T0 + 4600, 0xFFFFFFFF, previous=11), bytes(17) + b"\x00\x00\x07"])
        self.assertEqual(self.state("next_event"), 12)
        self.control("ClearHistory")
        self.assertEqual(self.control("History"), [])


class DoubleTapAndEvents(CubeTest):
    def test_a_double_tap_notifies_the_facet_plus_128_while_paused(self):
        self.authorize()
        self.notify(DOUBLE_TAP)
        self.take()
        self.assertTrue(self.control("DoubleTap", T0 + 10))
        self.assertFalse(self.control("DoubleTap", T0 + 20))
        self.wait_for(lambda: len(self.values(DOUBLE_TAP)) == 2)
        self.assertEqual(self.values(DOUBLE_TAP), [b"\x81", b"\x01"])
        self.assertEqual(self.control("History"), [(1, 1, T0, 10), (2, 129, T0 + 10, 10)])

    def test_a_pause_command_is_an_interval_boundary_without_a_notification(self):
        self.authorize()
        self.notify(DOUBLE_TAP)
        self.control("SetClock", T0 + 50)
        self.write(COMMAND, b"\x06\x01")
        self.control("SetClock", T0 + 80)
        self.write(COMMAND, b"\x06\x02")
        self.settle()
        self.assertEqual(self.values(DOUBLE_TAP), [])
        self.assertEqual(self.control("History"), [(1, 1, T0, 50), (2, 129, T0 + 50, 30)])

    def test_events_text_is_read_and_notified(self):
        self.authorize()
        self.notify(EVENTS)
        self.control("Event", "Flip 3")
        self.wait_for(lambda: self.values(EVENTS))
        self.assertEqual(self.values(EVENTS), [b"Flip 3"])
        self.assertEqual(self.read(EVENTS), b"Flip 3")


class Battery(CubeTest):
    def test_battery_level_notifies_and_battery1_follows(self):
        self.connect()
        self.notify(BATTERY_LEVEL)
        self.take()
        self.control("SetBattery", 42)
        self.wait_for(lambda: len(self.signals) == 2)
        self.assertEqual(self.take(), [
            ("changed", DEVICE_PATH, "org.bluez.Battery1", {"Percentage": 42}),
            ("changed", PATH_OF[BATTERY_LEVEL], CHARACTERISTIC, {"Value": b"\x2a"})])
        self.assertEqual(self.read(BATTERY_LEVEL), b"\x2a")
        self.assertEqual(self.bluez(DEVICE_PATH, PROPS, "Get", "org.bluez.Battery1", "Percentage"), 42)

    def test_without_claimed_services_or_battery1(self):
        self.fake.close()
        self.fake = Fake(self.bus.address, "--hide-claimed-services", "--no-battery1")
        self.connect()
        objects = self.managed()
        self.assertEqual(sorted(objects), sorted(BASE_OBJECTS + [g[0] for g in GATT[7:]]))
        self.assertEqual(list(objects[DEVICE_PATH]), [DEVICE])


class Link(CubeTest):
    def test_out_of_range_disconnects_and_connect_fails_until_back(self):
        self.authorize()
        self.notify(FACETS)
        self.take()
        self.control("OutOfRange")
        self.wait_for(lambda: len(self.signals) == 4)
        self.assertEqual(self.take(), [
            ("removed", DEVICE_PATH, ["org.bluez.Battery1"]),
            ("changed", DEVICE_PATH, DEVICE, {"ServicesResolved": False}),
            ("disconnected", DEVICE_PATH, "org.bluez.Reason.Timeout", "Connection timeout"),
            ("changed", DEVICE_PATH, DEVICE, {"Connected": False})])
        objects = self.managed()
        self.assertEqual(len(objects), 3 + len(GATT))
        self.assertTrue(objects[PATH_OF[FACETS]][CHARACTERISTIC]["Notifying"])
        self.assertError("org.bluez.Error.Failed", "le-connection-abort-by-local", self.connect)
        self.assertError("org.bluez.Error.Failed", "Not connected", self.read, FACETS)
        self.assertTrue(self.control("Flip", 6, T0 + 900))
        self.settle()
        self.assertEqual(self.values(FACETS), [])
        self.control("BackInRange", False)
        self.assertFalse(self.state("connected"))
        self.connect()
        self.assertEqual(self.read(FACETS), b"\x00")
        self.assertEqual(self.control("History"), [(1, 1, T0, 900)])

    def test_back_in_range_can_reconnect_by_itself(self):
        self.control("OutOfRange")
        self.control("BackInRange", True)
        self.wait_for(lambda: ("changed", DEVICE_PATH, DEVICE, {"ServicesResolved": True}) in self.signals)
        self.assertTrue(self.state("connected"))

    def test_disconnects_by_the_client_and_by_the_cube(self):
        self.connect()
        self.take()
        self.bluez(DEVICE_PATH, DEVICE, "Disconnect")
        self.control("BackInRange", True)
        self.control("DropConnection")
        self.wait_for(lambda: len([s for s in self.signals if s[0] == "disconnected"]) == 2)
        self.assertEqual([s for s in self.signals if s[0] == "disconnected"], [
            ("disconnected", DEVICE_PATH, "org.bluez.Reason.Local", "Connection terminated by local host"),
            ("disconnected", DEVICE_PATH, "org.bluez.Reason.Remote", "Connection terminated by remote user")])
        self.assertError("org.bluez.Error.NotConnected", "Not Connected",
                         self.bluez, DEVICE_PATH, DEVICE, "Disconnect")

    def test_start_notify_while_disconnected_takes_effect_on_connection(self):
        self.connect()
        self.bluez(DEVICE_PATH, DEVICE, "Disconnect")
        self.take()
        self.notify(FACETS)
        self.settle()
        self.assertEqual(self.state("notifying"), [])
        self.connect()
        self.assertEqual(self.state("notifying"), [FACETS])
        self.assertIn(("changed", PATH_OF[FACETS], CHARACTERISTIC, {"Notifying": True}), self.take())

    def test_a_client_leaving_the_bus_ends_its_notify_sessions(self):
        self.connect()
        other = dbus.bus.BusConnection(self.bus.address)
        other.get_object("org.bluez", PATH_OF[FACETS], introspect=False).StartNotify(dbus_interface=CHARACTERISTIC)
        self.notify(DOUBLE_TAP)
        self.notify(DOUBLE_TAP)
        self.assertEqual(self.state("notifying"), [FACETS, DOUBLE_TAP])
        self.take()
        other.close()
        self.wait_for(lambda: self.signals)
        self.assertEqual(self.take(), [("changed", PATH_OF[FACETS], CHARACTERISTIC, {"Notifying": False})])
        self.bluez(PATH_OF[DOUBLE_TAP], CHARACTERISTIC, "StopNotify")
        self.assertEqual(self.state("notifying"), [])

    def test_the_adapter_powered_off_drops_the_link_and_refuses_connect(self):
        self.connect()
        self.bluez("/org/bluez/hci0", PROPS, "Set", "org.bluez.Adapter1", "Powered", dbus.Boolean(False, variant_level=1))
        self.assertFalse(self.state("connected"))
        self.assertError("org.bluez.Error.NotReady", "Resource Not Ready", self.connect)
        self.control("SetPowered", True)
        self.connect()
        self.assertTrue(self.state("connected"))

    def test_connect_can_take_time(self):
        self.fake.close()
        self.fake = Fake(self.bus.address, "--connect-delay-ms", "400")
        started = time.monotonic()
        self.connect()
        self.assertGreaterEqual(time.monotonic() - started, 0.4)


class GattCacheOff(CubeTest):
    arguments = ("--gatt-cache", "no", "--connected")

    def test_a_disconnection_removes_the_gatt_objects(self):
        self.assertTrue(self.state("connected"))
        self.control("DropConnection")
        self.wait_for(lambda: ("changed", DEVICE_PATH, DEVICE, {"Connected": False}) in self.signals)
        removed = [s[1] for s in self.signals if s[0] == "removed" and s[1] != DEVICE_PATH]
        self.assertEqual(removed, [
            SERVICE_PATH + "/char001e/desc0020", SERVICE_PATH + "/char001e", SERVICE_PATH + "/char001c",
            SERVICE_PATH + "/char0019/desc001b", SERVICE_PATH + "/char0019", SERVICE_PATH + "/char0016/desc0018",
            SERVICE_PATH + "/char0016", SERVICE_PATH + "/char0014", SERVICE_PATH + "/char0012",
            SERVICE_PATH + "/char000f/desc0011", SERVICE_PATH + "/char000f", SERVICE_PATH + "/char000c/desc000e",
            SERVICE_PATH + "/char000c", SERVICE_PATH,
            DEVICE_PATH + "/service0007/char0008/desc000a", DEVICE_PATH + "/service0007/char0008",
            DEVICE_PATH + "/service0007", DEVICE_PATH + "/service0004/char0005", DEVICE_PATH + "/service0004",
            DEVICE_PATH + "/service0001/char0002", DEVICE_PATH + "/service0001"])
        self.assertEqual(sorted(self.managed()), BASE_OBJECTS)
        self.connect()
        self.assertEqual(len(self.managed()), 3 + len(GATT))


class Restart(CubeTest):
    def test_a_stopped_bluez_leaves_the_bus_and_a_started_one_has_a_new_name(self):
        self.connect()
        first = self.state("bluez_unique_name")
        self.take()
        self.control("StopBlueZ")
        self.assertError("org.freedesktop.DBus.Error.ServiceUnknown",
                         "The name org.bluez was not provided by any .service files", self.managed)
        self.assertEqual((self.state("bluez_running"), self.state("connected")), (False, False))
        self.control("StartBlueZ")
        second = self.state("bluez_unique_name")
        self.assertNotEqual(second, first)
        self.wait_for(lambda: len([s for s in self.signals if s[0] == "owner"]) == 2)
        self.assertEqual([s for s in self.signals if s[0] == "owner"], [("owner", first, ""), ("owner", "", second)])
        objects = self.managed()
        self.assertEqual(sorted(objects), BASE_OBJECTS)
        self.assertFalse(objects[DEVICE_PATH][DEVICE]["Connected"])
        self.connect()
        self.assertEqual(self.read(FACETS), b"\x00")

    def test_a_connect_pending_when_bluez_stops_is_answered_by_the_bus(self):
        self.fake.close()
        self.fake = Fake(self.bus.address, "--connect-delay-ms", "800")
        answers = []
        device = self.connection.get_object("org.bluez", DEVICE_PATH, introspect=False)
        device.Connect(dbus_interface=DEVICE, reply_handler=lambda: answers.append("connected"),
                       error_handler=lambda error: answers.append(error.get_dbus_name()))
        self.settle()
        self.assertError("org.bluez.Error.InProgress", "In Progress", self.connect)
        self.control("StopBlueZ")
        self.wait_for(lambda: answers)
        self.control("StartBlueZ")
        time.sleep(1)
        self.settle()
        self.assertEqual(answers, ["org.freedesktop.DBus.Error.NoReply"])
        self.assertFalse(self.state("connected"))

    def test_restart_comes_back_after_the_given_time(self):
        self.control("RestartBlueZ", 300)
        self.assertFalse(self.state("bluez_running"))
        self.wait_for(lambda: self.state("bluez_running"))
        self.assertEqual(sorted(self.managed()), BASE_OBJECTS)


class Failures(CubeTest):
    def test_an_injected_error_answers_the_next_calls(self):
        self.control("FailNext", "Connect", "", "org.bluez.Error.Failed", "Software caused connection abort", 1)
        self.assertError("org.bluez.Error.Failed", "Software caused connection abort", self.connect)
        self.connect()
        self.control("FailNext", "ReadValue", FACETS.upper(), "org.bluez.Error.NotPermitted", "Read not permitted", 0)
        self.control("FailNext", "StartNotify", "", "org.bluez.Error.InProgress", "In Progress", 2)
        for _ in range(2):
            self.assertError("org.bluez.Error.NotPermitted", "Read not permitted", self.read, FACETS)
            self.assertError("org.bluez.Error.InProgress", "In Progress", self.notify, HISTORY)
        self.notify(HISTORY)
        self.assertEqual(self.read(BATTERY_LEVEL), b"\x5a")
        self.control("ClearFailures")
        self.assertEqual(self.read(FACETS), b"\x00")

    def test_bluetoothd_errors(self):
        self.assertError("org.freedesktop.DBus.Error.UnknownObject",
                         'Method "ReadValue" with signature "a{sv}" on interface "org.bluez.GattCharacteristic1" '
                         "doesn't exist\n", self.read, FACETS)
        self.connect()
        self.bluez(DEVICE_PATH, DEVICE, "Disconnect")
        self.assertError("org.bluez.Error.Failed", "Not connected", self.read, FACETS)
        self.assertError("org.bluez.Error.Failed", "Not connected", self.write, PASSWORD, b"000000")
        self.connect()
        self.assertError("org.freedesktop.DBus.Error.UnknownMethod",
                         'Method "WriteValue" with signature "ay" on interface "org.bluez.GattCharacteristic1" '
                         "doesn't exist", self.bluez, PATH_OF[PASSWORD], CHARACTERISTIC, "WriteValue",
                         dbus.ByteArray(b"000000"))
        self.assertError("org.freedesktop.DBus.Error.UnknownMethod",
                         'Method "Connect" with signature "s" on interface "org.bluez.Device1" doesn\'t exist',
                         self.bluez, DEVICE_PATH, DEVICE, "Connect", "now")
        self.assertFalse(self.state("authorized"))
        self.assertError("org.bluez.Error.NotPermitted", "Read not permitted", self.read, PASSWORD)
        self.assertError("org.bluez.Error.NotSupported", "Operation is not supported",
                         self.write, SYSTEM_STATE, b"\x00")
        self.assertError("org.bluez.Error.NotSupported", "Operation is not supported", self.notify, COMMAND)
        self.assertError("org.bluez.Error.Failed", "No notify session started",
                         self.bluez, PATH_OF[FACETS], CHARACTERISTIC, "StopNotify")
        self.assertError("org.freedesktop.DBus.Error.PropertyReadOnly", "Property 'Paired' is not writable",
                         self.bluez, DEVICE_PATH, PROPS, "Set", DEVICE, "Paired", dbus.Boolean(False, variant_level=1))

    def test_the_log_shows_each_call_and_what_was_written(self):
        self.connect()
        self.write(PASSWORD, b"000000")
        self.read(FACETS)
        self.write(COMMAND, b"\x10")
        self.assertEqual(self.control("Log"), [
            ("Connect", DEVICE_PATH, b""), ("WriteValue", PASSWORD, b"000000"), ("ReadValue", FACETS, b""),
            ("WriteValue", COMMAND, b"\x10")])
        self.assertEqual(self.control("Written", COMMAND.upper()), [b"\x10"])
        self.control("ClearLog")
        self.assertEqual(self.control("Log"), [])
        self.assertError("org.trackee.FakeCube.Error.UnknownCharacteristic", "no characteristic f00",
                         self.control, "Written", "f00")


class Malformed(CubeTest):
    def test_raw_notifications_of_any_length_and_facets_out_of_range(self):
        self.authorize()
        self.notify(FACETS)
        self.take()
        for value in (b"\x0d", b"\x00", b"\xff", b"", b"\x01\x02"):
            self.assertTrue(self.control("Notify", FACETS, dbus.ByteArray(value)))
        self.assertTrue(self.control("Flip", 13, T0 + 10))
        self.assertFalse(self.control("Notify", DOUBLE_TAP, dbus.ByteArray(b"\x01")))
        self.wait_for(lambda: len(self.values(FACETS)) == 6)
        self.assertEqual(self.values(FACETS), [b"\x0d", b"\x00", b"\xff", b"", b"\x01\x02", b"\x0d"])

    def test_a_read_can_answer_any_bytes(self):
        self.connect()
        self.control("OverrideRead", BATTERY_LEVEL, dbus.ByteArray(b""))
        self.control("OverrideRead", COMMAND_RESULT, dbus.ByteArray(b"\x07\x01"))
        self.assertEqual((self.read(BATTERY_LEVEL), self.read(COMMAND_RESULT)), (b"", b"\x07\x01"))
        self.control("ClearOverrides")
        self.assertEqual(self.read(BATTERY_LEVEL), b"\x5a")

    def test_padded_results(self):
        self.fake.close()
        self.fake = Fake(self.bus.address, "--clock", str(T0), "--pad-results")
        self.authorize()
        self.assertEqual(self.read(COMMAND_RESULT), b"\x01" + bytes(19))
        self.write(COMMAND, b"\x10")
        self.assertEqual(self.read(COMMAND_RESULT), b"\x02\x02\x00\x00" + bytes(16))


class Process(unittest.TestCase):
    def setUp(self):
        self.bus = PrivateBus()
        self.addCleanup(self.bus.close)

    def test_it_exits_when_stdin_closes(self):
        fake = Fake(self.bus.address)
        fake.process.stdin.close()
        self.assertEqual(fake.process.wait(10), 0)
        fake.close()

    def test_it_exits_on_sigterm_and_when_the_bus_goes(self):
        fake = Fake(self.bus.address)
        fake.process.send_signal(signal.SIGTERM)
        self.assertEqual(fake.process.wait(10), 0)
        fake.close()
        fake = Fake(self.bus.address)
        self.bus.daemon.kill()
        self.assertEqual(fake.process.wait(10), 0)
        fake.close()

    def test_it_refuses_to_start_without_a_bus_or_a_second_time(self):
        environment = {k: v for k, v in os.environ.items() if k != "DBUS_SYSTEM_BUS_ADDRESS"}
        done = subprocess.run([sys.executable, FAKE], capture_output=True, env=environment)
        self.assertEqual(done.returncode, 2)
        self.assertEqual(done.stderr.decode().splitlines()[-1],
                         "fake_timeflip_bluez.py: error: no bus: give --bus ADDRESS or set DBUS_SYSTEM_BUS_ADDRESS")
        fake = Fake(self.bus.address)
        self.addCleanup(fake.close)
        done = subprocess.run([sys.executable, FAKE, "--bus", self.bus.address], capture_output=True)
        self.assertEqual((done.returncode, done.stdout, done.stderr.decode()),
                         (1, b"", "fake_timeflip_bluez: org.trackee.FakeCube already has an owner\n"))

    def test_it_refuses_to_start_when_org_bluez_has_an_owner(self):
        squatter = dbus.bus.BusConnection(self.bus.address)
        self.addCleanup(squatter.close)
        squatter.request_name("org.bluez")
        done = subprocess.run([sys.executable, FAKE, "--bus", self.bus.address], capture_output=True)
        self.assertEqual((done.returncode, done.stdout, done.stderr.decode()),
                         (1, b"", "fake_timeflip_bluez: org.bluez already has an owner\n"))


if __name__ == "__main__":
    unittest.main()
