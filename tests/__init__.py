"""Test package (lets other tests import ``tests.replay``)."""
