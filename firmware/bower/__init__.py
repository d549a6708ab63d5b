"""Bower firmware for the Raspberry Pi Pico."""

__version__ = "0.2.0"
