#!/usr/bin/python3
"""A TimeFlip2 cube behind a mock BlueZ, on a private D-Bus bus, for trackee's tests.

    /usr/bin/python3 fake_timeflip_bluez.py --bus unix:path=/tmp/x/bus --clock 1795500000

It owns `org.bluez` on the bus given by --bus (or DBUS_SYSTEM_BUS_ADDRESS)
and shows what bluetoothd shows for one paired Bluetooth LE device: the
object manager at "/", adapter /org/bluez/hci0 and the device with its GATT
services, characteristics and descriptors once it has been connected. The
device behaves as the TimeFlip2 protocol document (v4.3) describes; see
TIMEFLIP.md beside this file for the protocol and the choices made where the
document is unclear.

Tests drive it through org.trackee.FakeCube1 at /org/trackee/cube, owned as
`org.trackee.FakeCube` on a connection of its own, so it stays reachable
while the mock bluetoothd is "restarted". README.md lists the methods.

Its only stdout line is `ready` once both names are owned. It exits when the
bus goes away, on SIGTERM or SIGINT, and with --exit-on-stdin-eof when stdin
closes. Needs Debian's dbus-python and PyGObject (/usr/bin/python3).
"""

import argparse
import os
import signal
import sys
import time

import dbus
import dbus.bus
import dbus.exceptions
import dbus.lowlevel
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

BLUEZ = "org.bluez"
CONTROL_NAME = "org.trackee.FakeCube"
CONTROL_PATH = "/org/trackee/cube"
CONTROL_IFACE = "org.trackee.FakeCube1"
PROPS = "org.freedesktop.DBus.Properties"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
ADAPTER = "org.bluez.Adapter1"
DEVICE = "org.bluez.Device1"
BATTERY = "org.bluez.Battery1"
AGENT_MANAGER = "org.bluez.AgentManager1"
SERVICE = "org.bluez.GattService1"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"
DESCRIPTOR = "org.bluez.GattDescriptor1"


def uuid16(short):
    """The 128-bit form of a Bluetooth SIG 16-bit UUID, lower case as BlueZ writes it."""
    return "0000%04x-0000-1000-8000-00805f9b34fb" % short


def timeflip_uuid(short):
    return "f119%04x-71a4-11e6-bdf4-0800200c9a66" % short


TIMEFLIP_SERVICE = timeflip_uuid(0x6F50)
EVENTS = timeflip_uuid(0x6F51)
FACETS = timeflip_uuid(0x6F52)
COMMAND_RESULT = timeflip_uuid(0x6F53)
COMMAND = timeflip_uuid(0x6F54)
DOUBLE_TAP = timeflip_uuid(0x6F55)
SYSTEM_STATE = timeflip_uuid(0x6F56)
PASSWORD = timeflip_uuid(0x6F57)
HISTORY = timeflip_uuid(0x6F58)
BATTERY_LEVEL = uuid16(0x2A19)
DEVICE_NAME = uuid16(0x2A00)
FIRMWARE_REVISION = uuid16(0x2A26)
CCC = uuid16(0x2902)

# The attribute table: (service handle, service UUID, claimed by a bluetoothd
# plugin, [(characteristic declaration handle, UUID, flags)]). A characteristic's
# value is at handle + 1 and, when it notifies, its Client Characteristic
# Configuration descriptor at handle + 2; BlueZ names the D-Bus objects after
# the service and declaration handles (service000b/char000f).
GATT_TABLE = [
    (0x0001, uuid16(0x1800), True, [(0x0002, DEVICE_NAME, ["read"])]),
    (0x0004, uuid16(0x180A), True, [(0x0005, FIRMWARE_REVISION, ["read"])]),
    (0x0007, uuid16(0x180F), True, [(0x0008, BATTERY_LEVEL, ["read", "notify"])]),
    (0x000B, TIMEFLIP_SERVICE, False, [
        (0x000C, EVENTS, ["read", "notify"]),
        (0x000F, FACETS, ["read", "notify"]),
        (0x0012, COMMAND_RESULT, ["read"]),
        (0x0014, COMMAND, ["read", "write"]),
        (0x0016, DOUBLE_TAP, ["notify"]),
        (0x0019, SYSTEM_STATE, ["read", "notify"]),
        (0x001C, PASSWORD, ["write"]),
        (0x001E, HISTORY, ["read", "write", "notify"]),
    ]),
]

# Commands of the Command characteristic (F1196F54) and the command result.
CMD_LOCK, CMD_AUTO_PAUSE, CMD_PAUSE, CMD_READ_TIME, CMD_SET_TIME = 0x04, 0x05, 0x06, 0x07, 0x08
CMD_BRIGHTNESS, CMD_BLINK, CMD_STATUS, CMD_COLOR, CMD_SET_TASK = 0x09, 0x0A, 0x10, 0x11, 0x13
CMD_READ_TASK, CMD_NAME, CMD_SET_TAP, CMD_READ_TAP, CMD_SET_PASSWORD = 0x14, 0x15, 0x16, 0x17, 0x30
CMD_RESET_TASKS, CMD_FACTORY_RESET = 0xFE, 0xFF
RESULT_OK, RESULT_ERROR = 0x02, 0x01
PASSWORD_RIGHT, PASSWORD_WRONG = 0x01, 0x02
HISTORY_ONE, HISTORY_FROM = 0x01, 0x02
LAST_EVENT = 0xFFFFFFFF
# Intervals shorter than this are kept but left out of the history stream.
SHORTEST_STREAMED = 5
# The second pair of bytes of the system state that each command settles.
SYNC_SETTLED_BY = {CMD_COLOR: 0x02, CMD_BRIGHTNESS: 0x03, CMD_BLINK: 0x04, CMD_SET_TASK: 0x05, CMD_AUTO_PAUSE: 0x06}
DEFAULT_TAP = bytes([0x3A, 0x28, 0x3B, 0x0A, 0x3C, 0x14, 0x3D, 0x50])


def be(number, width):
    """`number` as `width` bytes, most significant first, cut to fit."""
    return (number % (1 << (8 * width))).to_bytes(width, "big")


def byte_array(value):
    return dbus.Array([dbus.Byte(b) for b in value], signature="y")


class BluezError(dbus.exceptions.DBusException):
    """An error answer carrying a BlueZ (or any) D-Bus error name."""

    def __init__(self, name, message):
        super().__init__(message, name=name)


# ---------------------------------------------------------------------------
# The cube


class CubeClock:
    """The cube's clock, seconds since 1970 (UTC): frozen at a value, or running."""

    def __init__(self, frozen_at=None):
        self.base = int(time.time()) if frozen_at is None else frozen_at
        self.since = time.monotonic() if frozen_at is None else None

    @property
    def running(self):
        return self.since is not None

    def now(self):
        if self.since is None:
            return self.base
        return self.base + int(time.monotonic() - self.since)

    def set(self, seconds):
        """Sets the time and keeps running or frozen as it was."""
        self.base = seconds
        if self.since is not None:
            self.since = time.monotonic()

    def freeze(self, seconds):
        self.base, self.since = seconds, None

    def run(self):
        if self.since is None:
            self.since = time.monotonic()


class Record:
    """One interval of the cube's history."""

    __slots__ = ("number", "side", "start", "duration")

    def __init__(self, number, side, start, duration):
        self.number, self.side, self.start, self.duration = number, side, start, duration

    def head(self):
        """Bytes 0-16: event number, side, moment of the flip, duration."""
        return be(self.number, 4) + bytes([self.side & 0xFF]) + be(self.start, 8) + be(self.duration, 4)


class Cube:
    """The TimeFlip2 itself: what each characteristic reads, what a write does.

    `notify(uuid, value)` is called for each notification the cube sends;
    the BlueZ layer delivers it when the link is up and the client listens."""

    def __init__(self, clock, password, facet, battery, notify, pad_results=False):
        self.clock = clock
        self.notify = notify
        self.pad_results = pad_results
        self.expected_password = password
        self.authorized = False
        self.facet = facet
        self.paused = False
        self.locked = False
        self.auto_pause = 0
        self.brightness = 100
        self.blink = 5
        self.colors = {}
        self.tasks = {}
        self.name = b"TimeFlip2"
        self.tap = DEFAULT_TAP
        self.system_state = bytearray(4)
        self.battery = battery
        self.history = []
        self.next_event = 1
        self.interval_start = clock.now()
        self.events_text = b""
        self.command_status = bytes(2)
        self.command_output = b""
        self.history_value = b""
        # Packets to send instead of the next 0x02 stream (SetHistoryStream).
        self.scripted_stream = None

    # -- the link

    def link_down(self):
        """The password has to be written again after every reconnection."""
        self.authorized = False

    # -- what the cube does on its own

    def side(self):
        return (self.facet + (128 if self.paused else 0)) & 0xFF

    def close_interval(self, at):
        """Ends the running interval at `at` and records it in the history."""
        duration = max(0, at - self.interval_start)
        self.history.append(Record(self.next_event, self.side(), self.interval_start, duration))
        self.next_event = (self.next_event + 1) % (1 << 32)
        self.interval_start = at

    def flip(self, facet, at):
        """Turns the cube to `facet` at cube time `at`; False when it does not count."""
        self.clock.set(at)
        if self.locked or facet == self.facet:
            return False
        self.close_interval(at)
        self.facet = facet
        if self.authorized:
            self.notify(FACETS, bytes([facet]))
        return True

    def double_tap(self, at):
        """A double tap pauses or resumes; the answer is whether it is paused now."""
        self.clock.set(at)
        self.set_paused(not self.paused, at)
        if self.authorized:
            self.notify(DOUBLE_TAP, bytes([self.side()]))
        return self.paused

    def set_paused(self, paused, at):
        if paused != self.paused:
            self.close_interval(at)
            self.paused = paused

    def set_battery(self, percent):
        self.battery = percent
        self.notify(BATTERY_LEVEL, bytes([percent]))

    def set_system_state(self, state):
        state = bytes(state)
        if state != bytes(self.system_state):
            self.system_state = bytearray(state)
            self.notify(SYSTEM_STATE, state)

    def settle(self, wanted):
        """Clears a synchronisation request (first two bytes) once it is met."""
        if bytes(self.system_state[:2]) in wanted:
            self.set_system_state(bytes(2) + bytes(self.system_state[2:]))

    def set_events_text(self, text):
        self.events_text = text
        self.notify(EVENTS, text)

    # -- reads

    def read(self, uuid):
        if uuid == FACETS:
            return bytes([self.facet if self.authorized else 0])
        if uuid == BATTERY_LEVEL:
            return bytes([self.battery])
        if uuid == COMMAND_RESULT:
            return self.command_output
        if uuid == COMMAND:
            return self.command_status
        if uuid == SYSTEM_STATE:
            return bytes(self.system_state)
        if uuid == HISTORY:
            return self.history_value
        if uuid == EVENTS:
            return self.events_text
        if uuid == DEVICE_NAME:
            return self.name
        if uuid == FIRMWARE_REVISION:
            return b"TFv4.3"
        return b""

    def padded(self, value):
        return value + bytes(20 - len(value)) if self.pad_results and len(value) < 20 else value

    # -- writes

    def write(self, uuid, value):
        """Applies a write; returns the packets of a history stream to notify, if any."""
        if uuid == PASSWORD:
            self.authorized = value == self.expected_password
            self.command_output = self.padded(bytes([PASSWORD_RIGHT if self.authorized else PASSWORD_WRONG]))
        elif uuid == COMMAND and value:
            ok = self.authorized and self.command(value)
            self.command_status = bytes([value[0], RESULT_OK if ok else RESULT_ERROR])
        elif uuid == HISTORY and self.authorized and len(value) >= 5:
            return self.history_request(value[0], int.from_bytes(value[1:5], "big"))
        return None

    def command(self, value):
        """Runs a command the cube accepted the password for; False if it fails."""
        code, data = value[0], value[1:]
        now = self.clock.now()
        if code in (CMD_LOCK, CMD_PAUSE):
            if len(data) < 1 or data[0] not in (1, 2):
                return False
            if code == CMD_LOCK:
                self.locked = data[0] == 1
            else:
                self.set_paused(data[0] == 1, now)
        elif code == CMD_AUTO_PAUSE:
            if len(data) < 2:
                return False
            self.auto_pause = int.from_bytes(data[:2], "big")
        elif code == CMD_READ_TIME:
            self.command_output = self.padded(bytes([CMD_READ_TIME]) + be(now, 8))
        elif code == CMD_SET_TIME:
            if len(data) < 8:
                return False
            self.clock.set(int.from_bytes(data[:8], "big"))
            self.settle((b"\x01\x00", b"\x02\x01"))
        elif code in (CMD_BRIGHTNESS, CMD_BLINK):
            low, high = (1, 100) if code == CMD_BRIGHTNESS else (5, 60)
            if len(data) < 1 or not low <= data[0] <= high:
                return False
            if code == CMD_BRIGHTNESS:
                self.brightness = data[0]
            else:
                self.blink = data[0]
        elif code == CMD_STATUS:
            self.command_output = self.padded(
                bytes([1 if self.locked else 2, 1 if self.paused else 2]) + be(self.auto_pause, 2))
        elif code == CMD_COLOR:
            if len(data) < 7 or data[0] > 24:
                return False
            self.colors[data[0]] = bytes(data[1:7])
        elif code == CMD_SET_TASK:
            if len(data) < 6 or data[0] > 24:
                return False
            self.tasks[data[0]] = (data[1], int.from_bytes(data[2:6], "big"))
        elif code == CMD_READ_TASK:
            if len(data) < 1 or data[0] > 24:
                return False
            mode, limit = self.tasks.get(data[0], (0, 0))
            running = now - self.interval_start if data[0] == self.facet else 0
            self.command_output = self.padded(bytes([CMD_READ_TASK, data[0], mode]) + be(limit, 4) + be(running, 4))
        elif code == CMD_NAME:
            if len(data) < 1 or data[0] > 18 or len(data) < 1 + data[0]:
                return False
            self.name = bytes(data[1:1 + data[0]])
        elif code == CMD_SET_TAP:
            if len(data) < 8 or bytes(data[0:8:2]) != bytes([0x3A, 0x3B, 0x3C, 0x3D]):
                return False
            self.tap = bytes(data[:8])
        elif code == CMD_READ_TAP:
            self.command_output = self.padded(bytes([CMD_READ_TAP]) + self.tap)
        elif code == CMD_SET_PASSWORD:
            if len(data) < 6:
                return False
            self.expected_password = bytes(data[:6])
        elif code == CMD_RESET_TASKS:
            self.tasks = {}
        elif code == CMD_FACTORY_RESET:
            self.factory_reset()
        else:
            return False
        if code in SYNC_SETTLED_BY:
            self.settle((bytes([0x02, SYNC_SETTLED_BY[code]]),))
        return True

    def factory_reset(self):
        self.history, self.next_event = [], 1
        self.interval_start = self.clock.now()
        self.expected_password = b"000000"
        self.locked = self.paused = False
        self.auto_pause, self.brightness, self.blink = 0, 100, 5
        self.colors, self.tasks, self.tap = {}, {}, DEFAULT_TAP
        self.set_system_state(b"\x01\x00" + bytes(self.system_state[2:]))

    def history_request(self, code, number):
        if code == HISTORY_ONE:
            found = self.history[-1:] if number == LAST_EVENT else [r for r in self.history if r.number == number][:1]
            self.history_value = self.padded(found[0].head()) if found else bytes(20)
            return None
        if code != HISTORY_FROM:
            return None
        if self.scripted_stream is not None:
            packets, self.scripted_stream = self.scripted_stream, None
            return packets
        packets, previous = [], 0
        for record in self.history:
            if record.number >= number and record.duration >= SHORTEST_STREAMED:
                packets.append(record.head() + be(previous, 3))
                previous = record.number
        packets.append(bytes(17) + be(previous, 3))
        return packets


# ---------------------------------------------------------------------------
# The mock bluetoothd


class Characteristic:
    """One GATT characteristic of the attribute table, with its D-Bus state."""

    def __init__(self, service, handle, uuid, flags):
        self.service, self.handle, self.uuid, self.flags = service, handle, uuid, flags
        self.path = "%s/char%04x" % (service.path, handle)
        self.notifies = "notify" in flags
        self.descriptor_path = "%s/desc%04x" % (self.path, handle + 2) if self.notifies else None
        self.sessions = set()
        self.notifying = False
        self.value = b""


class GattService:
    def __init__(self, device_path, handle, uuid, claimed, characteristics):
        self.handle, self.uuid, self.claimed = handle, uuid, claimed
        self.path = "%s/service%04x" % (device_path, handle)
        self.characteristics = [Characteristic(self, *c) for c in characteristics]


class Failure:
    """An injected error answer for the next `count` matching calls (0: all)."""

    def __init__(self, method, target, name, message, count):
        self.method, self.target, self.name, self.message, self.count = method, target, name, message, count


class Bluez:
    """The state bluetoothd shows on D-Bus for one adapter and the cube."""

    def __init__(self, options, log):
        self.options = options
        self.say = log
        self.address = options.bus
        self.adapter_path = "/org/bluez/" + options.adapter
        self.device_path = "%s/dev_%s" % (self.adapter_path, options.device.replace(":", "_"))
        self.services = [GattService(self.device_path, *s) for s in GATT_TABLE
                         if not (s[2] and options.hide_claimed_services)]
        self.characteristics = {c.uuid: c for s in self.services for c in s.characteristics}
        self.cube = Cube(CubeClock(options.clock), options.password.encode("latin-1"), options.facet,
                         options.battery, self.notify, options.pad_results)
        self.connection = None
        self.objects = {}
        self.running = False
        self.powered = True
        self.in_range = not options.out_of_range
        self.connected = False
        self.connecting = False
        self.resolved = False
        self.gatt_exported = False
        self.battery_exported = False
        self.discovering = False
        self.trusted = False
        self.alias = options.name
        self.stream = None
        self.failures = []
        self.overrides = {}
        self.calls = []
        self.watches = {}
        self.pending_start = None

    # -- D-Bus plumbing

    def start(self):
        """Connects to the bus as a new bluetoothd would, owns org.bluez, exports the tree."""
        if self.running:
            return
        connection = dbus.bus.BusConnection(self.address)
        connection.set_exit_on_disconnect(False)
        if connection.request_name(BLUEZ, dbus.bus.NAME_FLAG_DO_NOT_QUEUE) != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
            connection.close()
            raise BluezError("org.trackee.FakeCube.Error.NameTaken", "%s already has an owner" % BLUEZ)
        connection.add_signal_receiver(lambda *_: self.bus_lost(connection), signal_name="Disconnected",
                                       dbus_interface="org.freedesktop.DBus.Local", path="/org/freedesktop/DBus/Local")
        self.connection = connection
        self.running = True
        self.root = Root(self, "/")
        self.export(AgentManager(self, "/org/bluez"))
        self.export(Adapter(self, self.adapter_path))
        self.export(Device(self, self.device_path))
        self.say("bluez started as %s" % self.connection.get_unique_name())
        if self.options.connected and not self.connected:
            self.options.connected = False
            self.link_up()

    def stop(self):
        """Leaves the bus the way a killed bluetoothd does: no signals, the name just goes."""
        if not self.running:
            return
        self.cancel_stream()
        self.cube.link_down()
        self.connected = self.connecting = self.resolved = self.gatt_exported = self.battery_exported = False
        self.discovering = False
        for characteristic in self.characteristics.values():
            characteristic.sessions.clear()
            characteristic.notifying = False
            characteristic.value = b""
        for watch in self.watches.values():
            watch.cancel()
        self.watches.clear()
        for obj in list(self.objects.values()) + [self.root]:
            obj.remove_from_connection()
        self.objects.clear()
        self.running = False
        connection, self.connection = self.connection, None
        connection.release_name(BLUEZ)
        connection.close()
        self.say("bluez stopped")

    def restart(self, down_ms):
        self.stop()
        if self.pending_start is not None:
            GLib.source_remove(self.pending_start)
        self.pending_start = GLib.timeout_add(down_ms, self.start_later)

    def start_later(self):
        self.pending_start = None
        self.start()
        return False

    def bus_lost(self, connection):
        if connection is self.connection:
            self.say("the bus went away")
            quit_loop()

    def export(self, obj):
        self.objects[obj.path] = obj
        self.root.InterfacesAdded(obj.path, obj.interfaces())

    def unexport(self, path):
        obj = self.objects.pop(path)
        names = dbus.Array(obj.interfaces().keys(), signature="s")
        obj.remove_from_connection()
        self.root.InterfacesRemoved(path, names)

    def changed(self, path, interface, values):
        obj = self.objects.get(path)
        if obj is not None:
            obj.PropertiesChanged(interface, dbus.Dictionary(values, signature="sv"), dbus.Array([], signature="s"))

    # -- what a client call goes through first

    def check(self, method, target, value=b""):
        """Logs the call and raises the injected failure it matches, if any."""
        self.calls.append((method, target, bytes(value)))
        self.say("%s %s %s" % (method, target, bytes(value).hex()))
        for failure in self.failures:
            if failure.method in ("", method) and failure.target in ("", target):
                if failure.count == 1:
                    self.failures.remove(failure)
                elif failure.count > 1:
                    failure.count -= 1
                raise BluezError(failure.name, failure.message)

    # -- the link

    def connect(self, reply, error):
        self.check("Connect", self.device_path)
        if not self.powered:
            raise BluezError("org.bluez.Error.NotReady", "Resource Not Ready")
        if self.connected:
            reply()
            return
        if self.connecting:
            raise BluezError("org.bluez.Error.InProgress", "In Progress")
        self.connecting = True
        connection = self.connection

        def finish():
            # A bluetoothd that was stopped meanwhile never answers: the bus does.
            if connection is not self.connection:
                return False
            self.connecting = False
            if self.in_range and self.powered:
                self.link_up()
                reply()
            else:
                error(BluezError("org.bluez.Error.Failed", "le-connection-abort-by-local"))
            return False

        GLib.timeout_add(self.options.connect_delay_ms, finish)

    def disconnect(self):
        self.check("Disconnect", self.device_path)
        if not self.connected:
            raise BluezError("org.bluez.Error.NotConnected", "Not Connected")
        self.link_down("org.bluez.Reason.Local", "Connection terminated by local host")

    def link_up(self):
        self.connected = True
        self.changed(self.device_path, DEVICE, {"Connected": dbus.Boolean(True)})
        if not self.gatt_exported:
            self.gatt_exported = True
            for service in self.services:
                self.export(GattServiceObject(self, service))
                for characteristic in service.characteristics:
                    self.export(CharacteristicObject(self, characteristic))
                    if characteristic.notifies:
                        self.export(DescriptorObject(self, characteristic))
        for characteristic in self.characteristics.values():
            if characteristic.sessions and not characteristic.notifying:
                self.set_notifying(characteristic, True)
        self.resolved = True
        self.changed(self.device_path, DEVICE, {"ServicesResolved": dbus.Boolean(True)})
        if not self.options.no_battery1:
            self.battery_exported = True
            self.root.InterfacesAdded(self.device_path, {BATTERY: self.objects[self.device_path].battery()})
        self.say("connected")

    def link_down(self, reason, message):
        self.cancel_stream()
        self.cube.link_down()
        if self.battery_exported:
            self.battery_exported = False
            self.root.InterfacesRemoved(self.device_path, dbus.Array([BATTERY], signature="s"))
        self.resolved = False
        self.changed(self.device_path, DEVICE, {"ServicesResolved": dbus.Boolean(False)})
        if self.options.gatt_cache == "no" and self.gatt_exported:
            self.gatt_exported = False
            for service in reversed(self.services):
                for characteristic in reversed(service.characteristics):
                    if characteristic.notifies:
                        self.unexport(characteristic.descriptor_path)
                    self.unexport(characteristic.path)
                    characteristic.sessions.clear()
                    characteristic.notifying = False
                    characteristic.value = b""
                self.unexport(service.path)
        self.objects[self.device_path].Disconnected(reason, message)
        self.connected = False
        self.changed(self.device_path, DEVICE, {"Connected": dbus.Boolean(False)})
        self.say("disconnected: %s" % reason)

    def out_of_range(self):
        self.in_range = False
        if self.connected:
            self.link_down("org.bluez.Reason.Timeout", "Connection timeout")

    def back_in_range(self, reconnect):
        self.in_range = True
        if reconnect and self.running and self.powered and not self.connected:
            self.link_up()

    def drop(self):
        if self.connected:
            self.link_down("org.bluez.Reason.Remote", "Connection terminated by remote user")

    def set_powered(self, powered):
        if powered == self.powered:
            return
        if not powered and self.connected:
            self.link_down("org.bluez.Reason.Local", "Connection terminated by local host")
        self.powered = powered
        self.changed(self.adapter_path, ADAPTER, {"Powered": dbus.Boolean(powered)})

    # -- GATT calls

    def characteristic_at(self, path):
        return next(c for c in self.characteristics.values() if c.path == path)

    def read_value(self, characteristic):
        self.check("ReadValue", characteristic.uuid)
        if not self.connected:
            raise BluezError("org.bluez.Error.Failed", "Not connected")
        if "read" not in characteristic.flags:
            raise BluezError("org.bluez.Error.NotPermitted", "Read not permitted")
        value = self.overrides.get(characteristic.uuid)
        if value is None:
            value = self.cube.read(characteristic.uuid)
        # bluetoothd stores what it read in the cache and says so.
        self.store(characteristic, value)
        return value

    def write_value(self, characteristic, value):
        self.check("WriteValue", characteristic.uuid, value)
        if not self.connected:
            raise BluezError("org.bluez.Error.Failed", "Not connected")
        if "write" not in characteristic.flags:
            raise BluezError("org.bluez.Error.NotSupported", "Operation is not supported")
        packets = self.cube.write(characteristic.uuid, bytes(value))
        if packets is not None:
            self.send_stream(packets)

    def start_notify(self, characteristic, sender):
        self.check("StartNotify", characteristic.uuid)
        if not characteristic.notifies:
            raise BluezError("org.bluez.Error.NotSupported", "Operation is not supported")
        if sender in characteristic.sessions:
            return
        characteristic.sessions.add(sender)
        self.watch(sender)
        # Disconnected, bluetoothd accepts the session and subscribes on the next connection.
        if self.connected and not characteristic.notifying:
            self.set_notifying(characteristic, True)

    def stop_notify(self, characteristic, sender):
        self.check("StopNotify", characteristic.uuid)
        if sender not in characteristic.sessions:
            raise BluezError("org.bluez.Error.Failed", "No notify session started")
        characteristic.sessions.discard(sender)
        if not characteristic.sessions and characteristic.notifying:
            self.set_notifying(characteristic, False)

    def set_notifying(self, characteristic, notifying):
        characteristic.notifying = notifying
        self.changed(characteristic.path, CHARACTERISTIC, {"Notifying": dbus.Boolean(notifying)})

    def watch(self, sender):
        if sender not in self.watches:
            self.watches[sender] = self.connection.watch_name_owner(
                sender, lambda owner, sender=sender: owner or self.client_left(sender))

    def client_left(self, sender):
        """bluetoothd ends the notify sessions of a client that left the bus."""
        watch = self.watches.pop(sender, None)
        if watch is not None:
            watch.cancel()
        for characteristic in self.characteristics.values():
            if sender in characteristic.sessions:
                characteristic.sessions.discard(sender)
                if not characteristic.sessions and characteristic.notifying:
                    self.set_notifying(characteristic, False)

    def store(self, characteristic, value):
        characteristic.value = value
        if characteristic.path in self.objects:
            self.changed(characteristic.path, CHARACTERISTIC, {"Value": byte_array(value)})

    def notify(self, uuid, value):
        """A notification from the cube: it reaches D-Bus only if the link is up
        and a client has subscribed. Answers whether it was delivered."""
        if uuid == BATTERY_LEVEL and self.battery_exported and value and value[0] <= 100:
            self.changed(self.device_path, BATTERY, {"Percentage": dbus.Byte(value[0])})
        characteristic = self.characteristics.get(uuid)
        if not (self.running and self.connected and characteristic and characteristic.notifying):
            return False
        self.store(characteristic, value)
        return True

    def send_stream(self, packets):
        """Notifies the packets of a history stream one by one, after the write's answer."""
        self.cancel_stream()
        packets = list(packets)

        def next_packet():
            if not packets or not self.connected:
                self.stream = None
                return False
            packet = packets.pop(0)
            self.cube.history_value = packet
            self.notify(HISTORY, packet)
            if packets:
                return True
            self.stream = None
            return False

        self.stream = GLib.timeout_add(self.options.notify_interval_ms, next_packet)

    def cancel_stream(self):
        if self.stream is not None:
            GLib.source_remove(self.stream)
            self.stream = None


# ---------------------------------------------------------------------------
# D-Bus objects of the mock bluetoothd


class BluezObject(dbus.service.Object):
    """An object on bluetoothd's connection with org.freedesktop.DBus.Properties."""

    writable = {}

    def __init__(self, bluez, path):
        super().__init__(bluez.connection, path)
        self.bluez = bluez
        self.path = path

    def interfaces(self):
        return {}

    def _message_cb(self, connection, message):
        """Refuses a call whose arguments do not have the method's signature,
        as bluetoothd does, before dbus-python would take them anyway."""
        if message.get_type() == dbus.lowlevel.MESSAGE_TYPE_METHOD_CALL:
            try:
                method = dbus.service._method_lookup(self, message.get_member(), message.get_interface())[0]
            except dbus.exceptions.DBusException:
                method = None
            wanted = getattr(method, "_dbus_in_signature", None) or ""
            if method is not None and message.get_signature() != wanted:
                connection.send_message(dbus.lowlevel.ErrorMessage(
                    message, "org.freedesktop.DBus.Error.UnknownMethod",
                    'Method "%s" with signature "%s" on interface "%s" doesn\'t exist'
                    % (message.get_member(), message.get_signature(), message.get_interface())))
                return
        super()._message_cb(connection, message)

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        properties = self.interfaces().get(interface)
        if properties is None or name not in properties:
            raise BluezError("org.freedesktop.DBus.Error.InvalidArgs", "No such property '%s'" % name)
        return properties[name]

    @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        properties = self.interfaces().get(interface)
        if properties is None:
            raise BluezError("org.freedesktop.DBus.Error.InvalidArgs", "No such interface '%s'" % interface)
        return dbus.Dictionary(properties, signature="sv")

    @dbus.service.method(PROPS, in_signature="ssv")
    def Set(self, interface, name, value):
        setter = self.writable.get((interface, name))
        if setter is None:
            raise BluezError("org.freedesktop.DBus.Error.PropertyReadOnly", "Property '%s' is not writable" % name)
        setter(self, value)

    @dbus.service.signal(PROPS, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class Root(BluezObject):
    @dbus.service.method(OBJECT_MANAGER, out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        return dbus.Dictionary({path: obj.interfaces() for path, obj in self.bluez.objects.items()},
                               signature="oa{sa{sv}}")

    @dbus.service.signal(OBJECT_MANAGER, signature="oa{sa{sv}}")
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.signal(OBJECT_MANAGER, signature="oas")
    def InterfacesRemoved(self, path, interfaces):
        pass


class AgentManager(BluezObject):
    """/org/bluez: accepts agents, as bluetoothd does, and does nothing with them."""

    def interfaces(self):
        return {AGENT_MANAGER: {}}

    @dbus.service.method(AGENT_MANAGER, in_signature="os")
    def RegisterAgent(self, agent, capability):
        pass

    @dbus.service.method(AGENT_MANAGER, in_signature="o")
    def UnregisterAgent(self, agent):
        pass

    @dbus.service.method(AGENT_MANAGER, in_signature="o")
    def RequestDefaultAgent(self, agent):
        pass


class Adapter(BluezObject):
    def interfaces(self):
        b = self.bluez
        return {ADAPTER: {
            "Address": dbus.String("00:1A:7D:DA:71:13"),
            "AddressType": dbus.String("public"),
            "Name": dbus.String("trackee-test"),
            "Alias": dbus.String("trackee-test"),
            "Class": dbus.UInt32(0x7C010C),
            "Powered": dbus.Boolean(b.powered),
            "Discoverable": dbus.Boolean(False),
            "Pairable": dbus.Boolean(True),
            "Discovering": dbus.Boolean(b.discovering),
            "UUIDs": dbus.Array([uuid16(0x1800), uuid16(0x1801)], signature="s"),
        }}

    def set_powered(self, value):
        self.bluez.set_powered(bool(value))

    writable = {(ADAPTER, "Powered"): set_powered}

    @dbus.service.method(ADAPTER)
    def StartDiscovery(self):
        if not self.bluez.powered:
            raise BluezError("org.bluez.Error.NotReady", "Resource Not Ready")
        if not self.bluez.discovering:
            self.bluez.discovering = True
            self.bluez.changed(self.path, ADAPTER, {"Discovering": dbus.Boolean(True)})

    @dbus.service.method(ADAPTER)
    def StopDiscovery(self):
        if not self.bluez.discovering:
            raise BluezError("org.bluez.Error.Failed", "No discovery started")
        self.bluez.discovering = False
        self.bluez.changed(self.path, ADAPTER, {"Discovering": dbus.Boolean(False)})

    @dbus.service.method(ADAPTER, in_signature="a{sv}")
    def SetDiscoveryFilter(self, properties):
        pass

    @dbus.service.method(ADAPTER, out_signature="as")
    def GetDiscoveryFilters(self):
        return dbus.Array(["UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern"],
                          signature="s")

    @dbus.service.method(ADAPTER, in_signature="o")
    def RemoveDevice(self, path):
        raise BluezError("org.bluez.Error.NotPermitted", "the fake cube cannot be removed")


class Device(BluezObject):
    def interfaces(self):
        b = self.bluez
        interfaces = {DEVICE: {
            "Address": dbus.String(b.options.device),
            "AddressType": dbus.String("public"),
            "Name": dbus.String(b.options.name),
            "Alias": dbus.String(b.alias),
            "Paired": dbus.Boolean(True),
            "Bonded": dbus.Boolean(True),
            "Trusted": dbus.Boolean(b.trusted),
            "Blocked": dbus.Boolean(False),
            "LegacyPairing": dbus.Boolean(False),
            "Connected": dbus.Boolean(b.connected),
            "UUIDs": dbus.Array(sorted(s[1] for s in GATT_TABLE), signature="s"),
            "Adapter": dbus.ObjectPath(b.adapter_path),
            "ServicesResolved": dbus.Boolean(b.resolved),
        }}
        if b.battery_exported:
            interfaces[BATTERY] = self.battery()
        return interfaces

    def battery(self):
        return {"Percentage": dbus.Byte(min(self.bluez.cube.battery, 100))}

    def set_trusted(self, value):
        self.bluez.trusted = bool(value)
        self.bluez.changed(self.path, DEVICE, {"Trusted": dbus.Boolean(self.bluez.trusted)})

    def set_alias(self, value):
        self.bluez.alias = str(value) or self.bluez.options.name
        self.bluez.changed(self.path, DEVICE, {"Alias": dbus.String(self.bluez.alias)})

    writable = {(DEVICE, "Trusted"): set_trusted, (DEVICE, "Alias"): set_alias}

    @dbus.service.method(DEVICE, async_callbacks=("reply", "error"))
    def Connect(self, reply, error):
        self.bluez.connect(reply, error)

    @dbus.service.method(DEVICE)
    def Disconnect(self):
        self.bluez.disconnect()

    @dbus.service.method(DEVICE)
    def Pair(self):
        raise BluezError("org.bluez.Error.AlreadyExists", "Already Exists")

    @dbus.service.signal(DEVICE, signature="ss")
    def Disconnected(self, reason, message):
        pass


class GattServiceObject(BluezObject):
    def __init__(self, bluez, service):
        super().__init__(bluez, service.path)
        self.service = service

    def interfaces(self):
        return {SERVICE: {
            "UUID": dbus.String(self.service.uuid),
            "Device": dbus.ObjectPath(self.bluez.device_path),
            "Primary": dbus.Boolean(True),
            "Includes": dbus.Array([], signature="o"),
            "Handle": dbus.UInt16(self.service.handle),
        }}


class CharacteristicObject(BluezObject):
    def __init__(self, bluez, characteristic):
        super().__init__(bluez, characteristic.path)
        self.characteristic = characteristic

    def interfaces(self):
        c = self.characteristic
        properties = {
            "UUID": dbus.String(c.uuid),
            "Service": dbus.ObjectPath(c.service.path),
            "Flags": dbus.Array(c.flags, signature="s"),
            "Handle": dbus.UInt16(c.handle),
        }
        # bluetoothd shows Value once it has cached one, Notifying where notify is a flag.
        if c.value:
            properties["Value"] = byte_array(c.value)
        if c.notifies:
            properties["Notifying"] = dbus.Boolean(c.notifying)
        return {CHARACTERISTIC: properties}

    @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="ay")
    def ReadValue(self, options):
        return byte_array(self.bluez.read_value(self.characteristic))

    @dbus.service.method(CHARACTERISTIC, in_signature="aya{sv}", byte_arrays=True)
    def WriteValue(self, value, options):
        self.bluez.write_value(self.characteristic, value)

    @dbus.service.method(CHARACTERISTIC, sender_keyword="sender")
    def StartNotify(self, sender=None):
        self.bluez.start_notify(self.characteristic, sender)

    @dbus.service.method(CHARACTERISTIC, sender_keyword="sender")
    def StopNotify(self, sender=None):
        self.bluez.stop_notify(self.characteristic, sender)


class DescriptorObject(BluezObject):
    """The Client Characteristic Configuration descriptor of a notifying characteristic."""

    def __init__(self, bluez, characteristic):
        super().__init__(bluez, characteristic.descriptor_path)
        self.characteristic = characteristic

    def interfaces(self):
        return {DESCRIPTOR: {
            "UUID": dbus.String(CCC),
            "Characteristic": dbus.ObjectPath(self.characteristic.path),
            "Handle": dbus.UInt16(self.characteristic.handle + 2),
        }}


# ---------------------------------------------------------------------------
# The control interface


class Control(dbus.service.Object):
    """org.trackee.FakeCube1: what a test does to the cube and to bluetoothd."""

    def __init__(self, connection, bluez):
        super().__init__(connection, CONTROL_PATH)
        self.bluez = bluez
        self.cube = bluez.cube

    def at(self, seconds):
        return self.cube.clock.now() if seconds == 0 else int(seconds)

    def known(self, uuid):
        uuid = str(uuid).lower()
        if uuid not in self.bluez.characteristics:
            raise BluezError("org.trackee.FakeCube.Error.UnknownCharacteristic", "no characteristic %s" % uuid)
        return uuid

    @dbus.service.method(CONTROL_IFACE, in_signature="yt", out_signature="b")
    def Flip(self, facet, at):
        return self.cube.flip(int(facet), self.at(at))

    @dbus.service.method(CONTROL_IFACE, in_signature="t", out_signature="b")
    def DoubleTap(self, at):
        return self.cube.double_tap(self.at(at))

    @dbus.service.method(CONTROL_IFACE)
    def OutOfRange(self):
        self.bluez.out_of_range()

    @dbus.service.method(CONTROL_IFACE, in_signature="b")
    def BackInRange(self, reconnect):
        self.bluez.back_in_range(bool(reconnect))

    @dbus.service.method(CONTROL_IFACE)
    def DropConnection(self):
        self.bluez.drop()

    @dbus.service.method(CONTROL_IFACE, in_signature="b")
    def SetPowered(self, powered):
        if self.bluez.running:
            self.bluez.set_powered(bool(powered))
        else:
            self.bluez.powered = bool(powered)

    @dbus.service.method(CONTROL_IFACE, in_signature="y")
    def SetBattery(self, percent):
        self.cube.set_battery(int(percent))

    @dbus.service.method(CONTROL_IFACE)
    def RequireTimeSync(self):
        self.cube.set_system_state(b"\x02\x01" + bytes(self.cube.system_state[2:]))

    @dbus.service.method(CONTROL_IFACE, in_signature="ay", byte_arrays=True)
    def SetSystemState(self, state):
        self.cube.set_system_state(state)

    @dbus.service.method(CONTROL_IFACE, in_signature="s")
    def SetPassword(self, password):
        self.cube.expected_password = str(password).encode("latin-1")

    @dbus.service.method(CONTROL_IFACE, in_signature="t")
    def SetClock(self, seconds):
        self.cube.clock.freeze(int(seconds))

    @dbus.service.method(CONTROL_IFACE, in_signature="t")
    def AdvanceClock(self, seconds):
        self.cube.clock.set(self.cube.clock.now() + int(seconds))

    @dbus.service.method(CONTROL_IFACE)
    def RunClock(self):
        self.cube.clock.run()

    @dbus.service.method(CONTROL_IFACE, in_signature="s")
    def Event(self, text):
        self.cube.set_events_text(str(text).encode("latin-1"))

    @dbus.service.method(CONTROL_IFACE)
    def StopBlueZ(self):
        self.bluez.stop()

    @dbus.service.method(CONTROL_IFACE)
    def StartBlueZ(self):
        self.bluez.start()

    @dbus.service.method(CONTROL_IFACE, in_signature="u")
    def RestartBlueZ(self, down_ms):
        self.bluez.restart(int(down_ms))

    @dbus.service.method(CONTROL_IFACE, in_signature="ssssu")
    def FailNext(self, method, target, name, message, count):
        target = str(target)
        target = target if target.startswith("/") else target.lower()
        self.bluez.failures.append(Failure(str(method), target, str(name), str(message), int(count)))

    @dbus.service.method(CONTROL_IFACE)
    def ClearFailures(self):
        self.bluez.failures.clear()

    @dbus.service.method(CONTROL_IFACE, in_signature="say", out_signature="b", byte_arrays=True)
    def Notify(self, uuid, value):
        return self.bluez.notify(self.known(uuid), bytes(value))

    @dbus.service.method(CONTROL_IFACE, in_signature="say", byte_arrays=True)
    def OverrideRead(self, uuid, value):
        self.bluez.overrides[self.known(uuid)] = bytes(value)

    @dbus.service.method(CONTROL_IFACE)
    def ClearOverrides(self):
        self.bluez.overrides.clear()

    @dbus.service.method(CONTROL_IFACE, in_signature="uytu")
    def AddHistory(self, number, side, start, duration):
        self.cube.history.append(Record(int(number), int(side), int(start), int(duration)))
        self.cube.next_event = max(self.cube.next_event, (int(number) + 1) % (1 << 32))

    @dbus.service.method(CONTROL_IFACE)
    def ClearHistory(self):
        self.cube.history = []

    @dbus.service.method(CONTROL_IFACE)
    def FactoryReset(self):
        """What the 0xFF command does, as if reset by hand: the history numbers from 1 again."""
        self.cube.factory_reset()

    @dbus.service.method(CONTROL_IFACE, out_signature="a(uytu)")
    def History(self):
        return dbus.Array([dbus.Struct((dbus.UInt32(r.number), dbus.Byte(r.side & 0xFF), dbus.UInt64(r.start),
                                        dbus.UInt32(r.duration))) for r in self.cube.history], signature="(uytu)")

    @dbus.service.method(CONTROL_IFACE, in_signature="aay", byte_arrays=True)
    def SetHistoryStream(self, packets):
        self.cube.scripted_stream = [bytes(p) for p in packets]

    @dbus.service.method(CONTROL_IFACE, out_signature="a(ssay)")
    def Log(self):
        return dbus.Array([dbus.Struct((m, t, byte_array(v))) for m, t, v in self.bluez.calls], signature="(ssay)")

    @dbus.service.method(CONTROL_IFACE)
    def ClearLog(self):
        self.bluez.calls.clear()

    @dbus.service.method(CONTROL_IFACE, in_signature="s", out_signature="aay")
    def Written(self, uuid):
        uuid = self.known(uuid)
        return dbus.Array([byte_array(v) for m, t, v in self.bluez.calls if m == "WriteValue" and t == uuid],
                          signature="ay")

    @dbus.service.method(CONTROL_IFACE, out_signature="a{sv}")
    def State(self):
        b, c = self.bluez, self.cube
        return dbus.Dictionary({
            "bluez_running": dbus.Boolean(b.running),
            "bluez_unique_name": dbus.String(b.connection.get_unique_name() if b.connection else ""),
            "powered": dbus.Boolean(b.powered),
            "in_range": dbus.Boolean(b.in_range),
            "connected": dbus.Boolean(b.connected),
            "services_resolved": dbus.Boolean(b.resolved),
            "gatt_exported": dbus.Boolean(b.gatt_exported),
            "notifying": dbus.Array(sorted(u for u, ch in b.characteristics.items() if ch.notifying), signature="s"),
            "authorized": dbus.Boolean(c.authorized),
            "password": dbus.String(c.expected_password.decode("latin-1")),
            "facet": dbus.Byte(c.facet),
            "paused": dbus.Boolean(c.paused),
            "locked": dbus.Boolean(c.locked),
            "auto_pause": dbus.UInt16(c.auto_pause),
            "brightness": dbus.Byte(c.brightness),
            "blink": dbus.Byte(c.blink),
            "name": dbus.String(c.name.decode("latin-1")),
            "clock": dbus.UInt64(c.clock.now()),
            "clock_running": dbus.Boolean(c.clock.running),
            "interval_start": dbus.UInt64(c.interval_start),
            "battery": dbus.Byte(c.battery),
            "system_state": byte_array(c.system_state),
            "next_event": dbus.UInt32(c.next_event),
            "history_count": dbus.UInt32(len(c.history)),
        }, signature="sv")


# ---------------------------------------------------------------------------

LOOP = GLib.MainLoop()


def quit_loop(*_):
    LOOP.quit()
    return False


def parse(argv):
    parser = argparse.ArgumentParser(
        description="A TimeFlip2 cube behind a mock BlueZ (org.bluez) on a private D-Bus bus, for trackee's tests.")
    parser.add_argument("--bus", default=os.environ.get("DBUS_SYSTEM_BUS_ADDRESS"),
                        help="The bus address; default: DBUS_SYSTEM_BUS_ADDRESS.")
    parser.add_argument("--device", default="0C:61:CF:C7:77:71", help="The cube's Bluetooth address.")
    parser.add_argument("--adapter", default="hci0", help="The adapter's name in /org/bluez/NAME.")
    parser.add_argument("--name", default="TimeFlip2", help="The cube's Bluetooth name.")
    parser.add_argument("--password", default="000000", help="The password the cube expects (6 ASCII characters).")
    parser.add_argument("--facet", type=int, default=1, help="The facet up at start (1-12).")
    parser.add_argument("--battery", type=int, default=90, help="The battery level in percent.")
    parser.add_argument("--clock", type=int, default=None,
                        help="Freeze the cube's clock at these seconds since 1970; default: it runs from the real time.")
    parser.add_argument("--time-sync-required", action="store_true", help="Start with system state 02 01.")
    parser.add_argument("--connected", action="store_true", help="Start connected, services resolved.")
    parser.add_argument("--out-of-range", action="store_true", help="Start out of range: Connect fails.")
    parser.add_argument("--gatt-cache", choices=("always", "no"), default="always",
                        help="bluetoothd's [GATT] Cache: 'always' (its default) keeps the GATT objects over a "
                             "disconnection, 'no' removes them.")
    parser.add_argument("--hide-claimed-services", action="store_true",
                        help="Leave out the services bluetoothd's plugins claim (Generic Access, Device "
                             "Information, Battery), as BlueZ before 5.80 does.")
    parser.add_argument("--no-battery1", action="store_true", help="No org.bluez.Battery1 on the device.")
    parser.add_argument("--connect-delay-ms", type=int, default=0, help="How long Connect takes to answer.")
    parser.add_argument("--notify-interval-ms", type=int, default=0, help="The pause between history packets.")
    parser.add_argument("--pad-results", action="store_true",
                        help="Pad command results and single history records to 20 bytes with zeros.")
    parser.add_argument("--exit-on-stdin-eof", action="store_true",
                        help="Exit when stdin closes, so a test that dies leaves nothing behind.")
    parser.add_argument("--verbose", action="store_true", help="Log each call on stderr.")
    options = parser.parse_args(argv)
    if not options.bus:
        parser.error("no bus: give --bus ADDRESS or set DBUS_SYSTEM_BUS_ADDRESS")
    if len(options.password) != 6 or not options.password.isascii():
        parser.error("--password must be 6 ASCII characters")
    if not 0 <= options.facet <= 255 or not 0 <= options.battery <= 255:
        parser.error("--facet and --battery must be between 0 and 255")
    if options.connected and options.out_of_range:
        parser.error("--connected and --out-of-range cannot both be given")
    return options


def main(argv=None):
    options = parse(argv)
    DBusGMainLoop(set_as_default=True)
    verbose = options.verbose

    def say(text):
        if verbose:
            print("fake_timeflip_bluez: " + text, file=sys.stderr, flush=True)

    try:
        control = dbus.bus.BusConnection(options.bus)
    except dbus.exceptions.DBusException as error:
        print("fake_timeflip_bluez: cannot connect to %s: %s" % (options.bus, error.get_dbus_message()),
              file=sys.stderr)
        return 1
    control.set_exit_on_disconnect(False)
    control.add_signal_receiver(quit_loop, signal_name="Disconnected", dbus_interface="org.freedesktop.DBus.Local",
                                path="/org/freedesktop/DBus/Local")
    if control.request_name(CONTROL_NAME, dbus.bus.NAME_FLAG_DO_NOT_QUEUE) != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
        print("fake_timeflip_bluez: %s already has an owner" % CONTROL_NAME, file=sys.stderr)
        return 1
    bluez = Bluez(options, say)
    if options.time_sync_required:
        bluez.cube.system_state[:2] = b"\x02\x01"
    Control(control, bluez)
    try:
        bluez.start()
    except BluezError as error:
        print("fake_timeflip_bluez: " + error.get_dbus_message(), file=sys.stderr)
        return 1
    for number in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, number, quit_loop)
    if options.exit_on_stdin_eof:
        GLib.io_add_watch(sys.stdin.fileno(), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR,
                          stdin_ready)
    print("ready", flush=True)
    LOOP.run()
    return 0


def stdin_ready(fd, condition):
    if condition & GLib.IO_IN and os.read(fd, 4096):
        return True
    LOOP.quit()
    return False


if __name__ == "__main__":
    sys.exit(main())
