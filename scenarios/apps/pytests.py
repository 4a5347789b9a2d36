# pytests.py MODULE: run CPython's own test module test.MODULE (Debian's
# libpython3.X-testsuite) under unittest, as the apps session does at an
# ordinary date and after the overflow. It prints one line, the verdict the
# session judges: "N of M tests failed[: Class.test (ERRNO) ...]", the errno
# name where a test died of an OSError; the tracebacks are left out, so that
# their messages do not read as the command's own error.
import errno
import re
import sys
import unittest


def why(trace):
    m = re.search(r"\[Errno (\d+)\]", trace)
    return " (%s)" % errno.errorcode.get(int(m.group(1)), m.group(1)) if m else ""


suite = unittest.defaultTestLoader.loadTestsFromName("test." + sys.argv[1])
result = unittest.TextTestRunner(stream=open("/dev/null", "w"), verbosity=0).run(suite)
bad = result.failures + result.errors
# "test.datetimetester.TestDate_Pure.test_x" -> "TestDate_Pure.test_x"
names = [".".join(test.id().split(".")[-2:]) + why(trace) for test, trace in bad]
print("%d of %d tests failed" % (len(bad), result.testsRun) + (": " + " ".join(names) if names else ""))
