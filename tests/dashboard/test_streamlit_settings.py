"""`goodput dashboard` from an installed wheel runs outside the repository, where Streamlit
does not find ``.streamlit/config.toml``: it passes the same settings as flags."""

from __future__ import annotations

import tomllib
from pathlib import Path

from goodput_lab.cli.main import STREAMLIT_SETTINGS, streamlit_flags

CONFIG = Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml"


def test_flags_carry_exactly_the_repository_settings():
    table = tomllib.loads(CONFIG.read_text())
    flat = {f"{section}.{k}": v for section, body in table.items() for k, v in body.items()}
    assert flat == STREAMLIT_SETTINGS


def test_every_flag_is_a_streamlit_option_and_reads_back():
    from streamlit import config

    options = config.get_config_options()
    for flag in streamlit_flags():
        name, _, value = flag.removeprefix("--").partition("=")
        assert name in options, name
        expected = STREAMLIT_SETTINGS[name]
        if isinstance(expected, bool):
            assert value == ("true" if expected else "false")
        else:
            assert value == str(expected)
    assert "--runner.postScriptGC=false" in streamlit_flags()
    assert "--client.toolbarMode=minimal" in streamlit_flags()
