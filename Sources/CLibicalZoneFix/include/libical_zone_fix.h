// See libical_zone_fix.c. Nothing to call: the fix works at link time.
