"""The club nights' tables and their migrations live under club/ (bower_host.club.schema):
the library's schema takes them from there and holds no club SQL of its own."""

import re
from pathlib import Path

from bower_host.club import schema as club_schema
from bower_host.db import schema

DB_SCHEMA = Path(schema.__file__).read_text()


def test_the_library_schema_holds_no_club_table():
    assert not re.search(r"CREATE TABLE[^(]*\bclub_", DB_SCHEMA)
    assert not re.search(r'"club_\w+": \(', DB_SCHEMA)


def test_the_club_tables_are_the_club_schemas():
    club = {t for t in schema.SCHEMA if t.startswith("club_")}
    assert club == set(club_schema.COLUMNS) and club
    for t in club:
        assert schema.SCHEMA[t] == club_schema.COLUMNS[t]
    made = {m for step in (club_schema.V4, club_schema.V7) for m in re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)",
                                                                                "\n".join(step))}
    assert made == club
    assert schema.MIGRATIONS[3] is club_schema.V4 and schema.MIGRATIONS[6] is club_schema.V7
