'''A python-dbusmock template for GNOME Mutter's idle monitor.

It serves org.gnome.Mutter.IdleMonitor on /org/gnome/Mutter/IdleMonitor/Core
as Mutter does for trackee's tests: idle watches that fire each time the
idle time reaches their interval, user-active watches that fire once on the
next activity, and WatchFired sent to the connection that added the watch.
Tests move the idle time with the mock-only method SetIdletime.
'''

import dbus
from gi.repository import GLib

from dbusmock import MOCK_IFACE

BUS_NAME = 'org.gnome.Mutter.IdleMonitor'
MAIN_OBJ = '/org/gnome/Mutter/IdleMonitor/Core'
MAIN_IFACE = 'org.gnome.Mutter.IdleMonitor'
SYSTEM_BUS = False


def load(mock, _parameters):
    mock.idletime = 0
    # id -> (owner's unique name, interval in ms; 0 for a user-active watch)
    mock.watches = {}
    mock.last_id = 0


def fire(mock, watch_id):
    owner, _ = mock.watches[watch_id]
    mock.EmitSignalDetailed(MAIN_IFACE, 'WatchFired', 'u', [dbus.UInt32(watch_id)], {'destination': owner})


def add_watch(mock, owner, interval):
    mock.last_id += 1
    mock.watches[mock.last_id] = (owner, interval)
    return mock.last_id


@dbus.service.method(MAIN_IFACE, in_signature='', out_signature='t')
def GetIdletime(self):
    return dbus.UInt64(self.idletime)


@dbus.service.method(MAIN_IFACE, in_signature='t', out_signature='u', sender_keyword='sender')
def AddIdleWatch(self, interval, sender=None):
    if interval == 0:
        raise dbus.exceptions.DBusException('an idle watch needs an interval above 0',
                                            name='org.freedesktop.DBus.Error.InvalidArgs')
    watch_id = add_watch(self, sender, int(interval))
    # Mutter fires a watch added after its interval has already passed
    # straight away, after the reply.
    if self.idletime >= interval:
        GLib.idle_add(lambda: fire(self, watch_id) and False)
    return dbus.UInt32(watch_id)


@dbus.service.method(MAIN_IFACE, in_signature='', out_signature='u', sender_keyword='sender')
def AddUserActiveWatch(self, sender=None):
    return dbus.UInt32(add_watch(self, sender, 0))


@dbus.service.method(MAIN_IFACE, in_signature='u', out_signature='')
def RemoveWatch(self, watch_id):
    self.watches.pop(int(watch_id), None)


@dbus.service.method(MOCK_IFACE, in_signature='t', out_signature='')
def SetIdletime(self, idletime):
    '''Moves the idle time to idletime ms, firing what Mutter would.

    A smaller value than before means the user was active meanwhile: the
    user-active watches fire and are removed, and idleness starts again
    from 0. Then every idle watch whose interval the idle time now
    reaches, and had not reached before, fires.
    '''
    idletime = int(idletime)
    before = self.idletime
    if idletime < before:
        for watch_id, (_, interval) in sorted(self.watches.items()):
            if interval == 0:
                fire(self, watch_id)
                del self.watches[watch_id]
        before = 0
    self.idletime = idletime
    for watch_id, (_, interval) in sorted(self.watches.items()):
        if interval != 0 and before < interval <= idletime:
            fire(self, watch_id)
