#!/usr/bin/python3
'''Sends malformed and unexpected D-Bus signals where trackee's desk sources listen.

usage: desk_fuzz.py --address ADDRESS [--count N] [--seed S] [--to NAME]

Each message is one of: logind's session Lock, Unlock and PropertiesChanged
with wrong types for LockedHint, IdleHint and IdleSinceHint; logind's
PrepareForSleep and PrepareForShutdown with a string, no argument or two;
UPower's OnBattery as a string; NetworkManager's ActiveConnections as
strings, invalid paths or paths to nothing, and its active connections'
State with wrong types; Mutter's WatchFired with ids it never gave and
wrong types; the ScreenSaver's ActiveChanged with an int; unknown members;
empty and huge strings. The same seed sends the same messages.

Where a service's name is owned by a python-dbusmock mock, most messages go
out through the mock (EmitSignalDetailed), so they come from the service's
own name and pass a watch's sender check; the rest, and every message for a
service nobody owns, come from the fuzzer's own connection, a stranger,
half of them addressed to one of the bus's connections (a signal with a
destination reaches it whatever its match rules). A message that would be
a real edge if the service sent it (Lock without arguments, ActiveChanged
with a boolean, WatchFired with an id Mutter gave) only ever comes from the
stranger; so a correct watch reports nothing for any of them.

It prints "sent N messages" and exits 0; 2 when the bus cannot be reached.
'''

import argparse
import random
import sys

import dbus
import dbus.lowlevel

MOCK_IFACE = 'org.freedesktop.DBus.Mock'
PROPERTIES = 'org.freedesktop.DBus.Properties'
LOGIND = 'org.freedesktop.login1'
UPOWER = 'org.freedesktop.UPower'
NM = 'org.freedesktop.NetworkManager'
MUTTER = 'org.gnome.Mutter.IdleMonitor'
SCREENSAVER = 'org.freedesktop.ScreenSaver'

# The main object of each service, where its mock's methods are.
MAIN_OBJECTS = {
    LOGIND: '/org/freedesktop/login1',
    UPOWER: '/org/freedesktop/UPower',
    NM: '/org/freedesktop/NetworkManager',
    MUTTER: '/org/gnome/Mutter/IdleMonitor/Core',
    SCREENSAVER: '/org/freedesktop/ScreenSaver',
}
NM_ACTIVE = 'org.freedesktop.NetworkManager.Connection.Active'


class Message:  # pylint: disable=too-few-public-methods
    '''One signal to send: from whom may it come, where, and what.'''

    def __init__(self, service, path, interface, member, signature, args, stranger_only=False):
        self.service = service
        self.path = path
        self.interface = interface
        self.member = member
        self.signature = signature
        self.args = list(args)
        self.stranger_only = stranger_only


class Fuzzer:
    '''Builds messages from a seeded generator and sends them.'''

    def __init__(self, bus, rng, to=None):
        self.bus = bus
        self.rng = rng
        self.to = to
        self.mocks = {}
        for service, path in MAIN_OBJECTS.items():
            self.mocks[service] = self.mock_of(service, path)
        self.sessions = self.session_paths()
        self.peers = self.unique_names()
        self.active_connections = self.nm_active_connections()

    def mock_of(self, service, path):
        '''The service's main object when a dbusmock owns the name, else None.'''
        try:
            obj = self.bus.get_object(service, path, introspect=False)
            obj.GetCalls(dbus_interface=MOCK_IFACE)
            return obj
        except dbus.exceptions.DBusException:
            return None

    def unique_names(self):
        '''The other connections on the bus, by unique name.'''
        names = self.bus.list_names()
        own = self.bus.get_unique_name()
        return sorted(str(n) for n in names if n.startswith(':') and n != own)

    def session_paths(self):
        paths = ['/org/freedesktop/login1/session/auto', '/org/freedesktop/login1/session/_31']
        mock = self.mocks[LOGIND]
        if mock is not None:
            try:
                for session in mock.ListSessions(dbus_interface='org.freedesktop.login1.Manager'):
                    paths.append(str(session[4]))
            except dbus.exceptions.DBusException:
                pass
        return paths

    def nm_active_connections(self):
        mock = self.mocks[NM]
        if mock is None:
            return []
        try:
            return [str(p) for p in mock.Get(NM, 'ActiveConnections', dbus_interface=PROPERTIES)]
        except dbus.exceptions.DBusException:
            return []

    # -- what to send

    def text(self):
        '''Empty, short, not ASCII, or huge (up to 1 MiB).'''
        choice = self.rng.randrange(5)
        if choice == 4:
            return 'x' * self.rng.choice([1024, 65536, 1 << 20])
        return ['', 'yes', 'true', '\u00e9t\u00e9 \U0001F600'][choice]

    def wrong_value(self):
        '''A variant value of a type no desk property has.'''
        choice = self.rng.randrange(5)
        if choice == 0:
            return dbus.String(self.text(), variant_level=1)
        if choice == 1:
            return dbus.Int32(self.rng.randint(-5, 5), variant_level=1)
        if choice == 2:
            return dbus.Double(self.rng.random() * 1e12, variant_level=1)
        if choice == 3:
            return dbus.Array([self.text()], signature='s', variant_level=1)
        return dbus.ObjectPath('/nothing/here', variant_level=1)

    def logind_session(self):
        path = self.rng.choice(self.sessions)
        iface = 'org.freedesktop.login1.Session'
        kind = self.rng.randrange(4)
        if kind == 0:  # well-formed, so only a stranger may say it
            return Message(LOGIND, path, iface, self.rng.choice(['Lock', 'Unlock']), '', [], stranger_only=True)
        if kind == 1:
            return Message(LOGIND, path, iface, self.rng.choice(['Lock', 'Unlock']), 's', [self.text()])
        name = self.rng.choice(['LockedHint', 'IdleHint', 'IdleSinceHint', 'IdleSinceHintMonotonic'])
        return Message(LOGIND, path, PROPERTIES, 'PropertiesChanged', 'sa{sv}as',
                       [iface, dbus.Dictionary({name: self.wrong_value()}, signature='sv'), dbus.Array([], signature='s')])

    def logind_manager(self):
        member = self.rng.choice(['PrepareForSleep', 'PrepareForShutdown'])
        signature, args = self.rng.choice([('s', ['true']), ('', []), ('bb', [True, True]), ('i', [1]), ('s', [''])])
        if signature == 's' and args[0] == '':
            args = [self.text()]
        return Message(LOGIND, '/org/freedesktop/login1', 'org.freedesktop.login1.Manager', member, signature, args)

    def upower(self):
        value = self.rng.choice([dbus.String('yes', variant_level=1), dbus.String('', variant_level=1),
                                 dbus.UInt32(1, variant_level=1), self.wrong_value()])
        return Message(UPOWER, '/org/freedesktop/UPower', PROPERTIES, 'PropertiesChanged', 'sa{sv}as',
                       [UPOWER, dbus.Dictionary({'OnBattery': value}, signature='sv'), dbus.Array([], signature='s')])

    def networkmanager(self):
        kind = self.rng.randrange(6)
        nothing = [dbus.ObjectPath(f'/org/freedesktop/NetworkManager/ActiveConnection/nothing{self.rng.randrange(1000)}')
                   for _ in range(self.rng.randint(1, 40))]
        current = [dbus.ObjectPath(p) for p in self.active_connections]
        if kind == 0:  # strings instead of paths
            value = dbus.Array([self.text(), 'not a path'], signature='s', variant_level=1)
        elif kind == 1:  # the current list and paths to nothing
            value = dbus.Array(current + nothing, signature='o', variant_level=1)
        elif kind == 5:  # every connection gone, but not said by NetworkManager
            return Message(NM, '/org/freedesktop/NetworkManager', PROPERTIES, 'PropertiesChanged', 'sa{sv}as',
                           [NM, dbus.Dictionary({'ActiveConnections': dbus.Array([], signature='o', variant_level=1)},
                                                signature='sv'), dbus.Array([], signature='s')], stranger_only=True)
        elif kind == 2:
            value = dbus.String('/org/freedesktop/NetworkManager/ActiveConnection/1', variant_level=1)
        elif kind == 3:  # NetworkManager's own form, with a wrong type
            return Message(NM, '/org/freedesktop/NetworkManager', NM, 'PropertiesChanged', 'a{sv}',
                           [dbus.Dictionary({'ActiveConnections': self.wrong_value()}, signature='sv')])
        else:  # an active connection's state, with wrong types or from nowhere
            path = self.rng.choice(current + nothing)
            if str(path) in self.active_connections:
                signature, args = self.rng.choice([('s', ['2']), ('uus', [2, 1, 'x']), ('i', [4])])
                return Message(NM, path, NM_ACTIVE, 'StateChanged', signature, args)
            return Message(NM, path, NM_ACTIVE, 'StateChanged', 'uu', [self.rng.choice([2, 4]), 1])
        return Message(NM, '/org/freedesktop/NetworkManager', PROPERTIES, 'PropertiesChanged', 'sa{sv}as',
                       [NM, dbus.Dictionary({'ActiveConnections': value}, signature='sv'), dbus.Array([], signature='s')])

    def mutter(self):
        path = MAIN_OBJECTS[MUTTER]
        if self.rng.random() < 0.25:  # ids Mutter did give, but not from Mutter
            return Message(MUTTER, path, MUTTER, 'WatchFired', 'u', [self.rng.randint(1, 4)], stranger_only=True)
        signature, args = self.rng.choice([
            ('u', [self.rng.choice([0, 1_000_000 + self.rng.randrange(1000), 0xFFFFFFFF])]),
            ('s', [self.text()]), ('t', [1]), ('', []), ('uu', [1, 2])])
        return Message(MUTTER, path, MUTTER, 'WatchFired', signature, args)

    def screensaver(self):
        if self.rng.random() < 0.25:
            return Message(SCREENSAVER, MAIN_OBJECTS[SCREENSAVER], SCREENSAVER, 'ActiveChanged', 'b',
                           [self.rng.random() < 0.5], stranger_only=True)
        signature, args = self.rng.choice([('i', [1]), ('i', [0]), ('s', ['true']), ('', []), ('bb', [True, False]),
                                           ('u', [1])])
        return Message(SCREENSAVER, self.rng.choice(['/org/freedesktop/ScreenSaver', '/ScreenSaver']), SCREENSAVER,
                       'ActiveChanged', signature, args)

    def unknown_member(self):
        service = self.rng.choice(list(MAIN_OBJECTS))
        interface = self.rng.choice([service, PROPERTIES, 'org.example.Nothing'])
        member = self.rng.choice(['Bogus', 'PropertiesChanged', 'X' * 255])
        signature, args = self.rng.choice([('s', [self.text()]), ('', []), ('as', [[self.text(), '']]),
                                           ('a{sv}', [dbus.Dictionary({self.text(): self.wrong_value()}, signature='sv')])])
        return Message(service, MAIN_OBJECTS[service], interface, member, signature, args)

    def message(self):
        return self.rng.choice([self.logind_session, self.logind_manager, self.upower, self.networkmanager,
                                self.mutter, self.screensaver, self.unknown_member])()

    # -- how to send

    def send(self, message):
        by_owner = self.rng.random() < 0.75
        mock = self.mocks[message.service]
        if by_owner and mock is not None and not message.stranger_only:
            try:
                self.send_through(mock, message)
                return
            except dbus.exceptions.DBusException:
                pass  # the mock refused it: the stranger sends it
        signal = dbus.lowlevel.SignalMessage(message.path, message.interface, message.member)
        if message.signature:
            signal.append(*message.args, signature=message.signature)
        # Half of them addressed to one connection on the bus: a signal
        # with a destination reaches it whatever its match rules say.
        addressed = self.rng.random() < 0.5
        if self.to:
            signal.set_destination(self.to)
        elif addressed and self.peers:
            signal.set_destination(self.rng.choice(self.peers))
        self.bus.send_message(signal)

    @staticmethod
    def send_through(mock, message):
        # Typed as the signature says, so that each keeps its type
        # inside the mock's array of variants.
        typed = dbus.lowlevel.SignalMessage('/a', 'a.b', 'c')
        if message.signature:
            typed.append(*message.args, signature=message.signature)
        mock.EmitSignalDetailed(message.interface, message.member, message.signature, typed.get_args_list(),
                                {'path': dbus.ObjectPath(message.path)}, dbus_interface=MOCK_IFACE,
                                signature='sssava{sv}')


def main():
    parser = argparse.ArgumentParser(description='Send malformed D-Bus signals where trackee listens.')
    parser.add_argument('--address', required=True, help='the bus address, such as unix:path=/run/user/1000/bus')
    parser.add_argument('--count', type=int, default=200, help='how many messages to send (default 200)')
    parser.add_argument('--seed', type=int, default=19, help='the random seed (default 19)')
    parser.add_argument('--to', metavar='NAME',
                        help='address every message the fuzzer sends itself to this connection, such as :1.7')
    options = parser.parse_args()
    try:
        bus = dbus.bus.BusConnection(options.address)
    except dbus.exceptions.DBusException as e:
        print(f'desk_fuzz.py: cannot reach the bus at {options.address}: {e}', file=sys.stderr)
        return 2
    fuzzer = Fuzzer(bus, random.Random(options.seed), options.to)
    sent = 0
    for _ in range(options.count):
        fuzzer.send(fuzzer.message())
        sent += 1
    bus.flush()
    # A round trip to the bus, so that every signal has left before exit.
    bus.get_object('org.freedesktop.DBus', '/org/freedesktop/DBus').GetId(dbus_interface='org.freedesktop.DBus')
    print(f'sent {sent} messages')
    return 0


if __name__ == '__main__':
    sys.exit(main())
