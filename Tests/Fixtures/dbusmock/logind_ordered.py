'''python-dbusmock's logind template, with a log of the order of a suspend.

It is the stock `logind` template, but Inhibit, the end of each inhibitor
and the mock-only methods PrepareForSleep and PrepareForShutdown (which send
the signal of that name) write a line each to the file named
by the parameter "order_log". The lines that follow a change of the store
say how many entries of the trackee store named by the parameter "store" are
running at that moment (end IS NULL), read with sqlite3 then and there:

    Inhibit sleep:shutdown delay
    PrepareForSleep true: 1 running
    released sleep:shutdown delay: 0 running
    PrepareForSleep false: 0 running
    Inhibit sleep:shutdown delay

"released … 0 running" after "PrepareForSleep true: 1 running" proves that
the stop a suspend fires was committed before its inhibitor let sleep go on.
'''

import os
import sqlite3

import dbus
from gi.repository import GLib

# The stock template whole: its load, methods and names; Inhibit is replaced below.
from dbusmock.templates.logind import *  # noqa: F401,F403 pylint: disable=wildcard-import,unused-wildcard-import
from dbusmock.templates.logind import load as stock_load
from dbusmock import MOCK_IFACE, mockobject


def load(mock, parameters):
    mock.order_log = str(parameters['order_log'])
    mock.store = str(parameters['store'])
    stock_load(mock, parameters)


def running(mock):
    '''How many entries of the store run now; -1 while it has no entry table.'''
    try:
        reader = sqlite3.connect(f'file:{mock.store}?mode=ro', uri=True)
        try:
            return reader.execute('SELECT count(*) FROM entry WHERE "end" IS NULL').fetchone()[0]
        finally:
            reader.close()
    except sqlite3.Error:
        return -1


def note(mock, line):
    with open(mock.order_log, 'a', encoding='utf-8') as log:
        log.write(line + '\n')


@dbus.service.method(MAIN_IFACE, in_signature='ssss', out_signature='h')
def Inhibit(self, what, who, why, mode):
    '''As the stock template's, and each inhibitor's end is logged.'''
    # pylint: disable=unused-argument
    if not hasattr(mockobject, 'inhibitors'):
        mockobject.inhibitors = []
    fd_r, fd_w = os.pipe()
    inhibitor = (what, who, why, mode, 1000, 123456)
    mockobject.inhibitors.append(inhibitor)
    note(self, f'Inhibit {what} {mode}')

    def dropped(fd, _condition):
        os.close(fd)
        mockobject.inhibitors.remove(inhibitor)
        note(self, f'released {what} {mode}: {running(self)} running')
        return False

    GLib.unix_fd_add_full(GLib.PRIORITY_HIGH, fd_r, GLib.IO_HUP, dropped)
    GLib.idle_add(os.close, fd_w)
    return fd_w


def prepare(mock, member, starting):
    note(mock, f'{member} {"true" if starting else "false"}: {running(mock)} running')
    mock.EmitSignal(MAIN_IFACE, member, 'b', [dbus.Boolean(starting)])


@dbus.service.method(MOCK_IFACE, in_signature='b', out_signature='')
def PrepareForSleep(self, starting):
    '''Logs the store's running entries, then sends PrepareForSleep(starting).'''
    prepare(self, 'PrepareForSleep', starting)


@dbus.service.method(MOCK_IFACE, in_signature='b', out_signature='')
def PrepareForShutdown(self, starting):
    '''Logs the store's running entries, then sends PrepareForShutdown(starting).'''
    prepare(self, 'PrepareForShutdown', starting)
