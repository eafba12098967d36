"""The chat bot (core and front ends). Built in its own issue."""
