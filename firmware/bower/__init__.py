"""Bower firmware for the Raspberry Pi Pico."""
