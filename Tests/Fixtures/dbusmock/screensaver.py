'''A python-dbusmock template for org.freedesktop.ScreenSaver.

The interface KDE, Xfce and others serve on /org/freedesktop/ScreenSaver:
GetActive, GetSessionIdleTime (in seconds) and the ActiveChanged signal.
Tests drive it with the mock-only methods SetActive and SetSessionIdleTime;
SetSessionIdleTime with a negative value makes GetSessionIdleTime fail, as
it does on desktops that do not implement it.
'''

import dbus

from dbusmock import MOCK_IFACE

BUS_NAME = 'org.freedesktop.ScreenSaver'
MAIN_OBJ = '/org/freedesktop/ScreenSaver'
MAIN_IFACE = 'org.freedesktop.ScreenSaver'
SYSTEM_BUS = False


def load(mock, _parameters):
    mock.active = False
    mock.idle_seconds = 0


@dbus.service.method(MAIN_IFACE, in_signature='', out_signature='b')
def GetActive(self):
    return dbus.Boolean(self.active)


@dbus.service.method(MAIN_IFACE, in_signature='', out_signature='u')
def GetSessionIdleTime(self):
    if self.idle_seconds < 0:
        raise dbus.exceptions.DBusException('GetSessionIdleTime is not implemented here',
                                            name='org.freedesktop.DBus.Error.NotSupported')
    return dbus.UInt32(self.idle_seconds)


@dbus.service.method(MOCK_IFACE, in_signature='b', out_signature='')
def SetActive(self, active):
    '''Sets the screen saver on or off and sends ActiveChanged, even when
    the value does not change, as some desktops do.'''
    self.active = bool(active)
    self.EmitSignal(MAIN_IFACE, 'ActiveChanged', 'b', [dbus.Boolean(self.active)])


@dbus.service.method(MOCK_IFACE, in_signature='i', out_signature='')
def SetSessionIdleTime(self, seconds):
    self.idle_seconds = int(seconds)
