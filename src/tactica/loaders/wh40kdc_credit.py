"""The bundled dataset's credit and installed version, in a module of their own so that
``tactica --version`` prints them without loading the data models."""

from __future__ import annotations

from importlib import metadata

__all__ = ["ATTRIBUTION", "installed_version"]

#: The credit the 40kdc-data licence asks for (README "Licensing": "Powered by 40kdc-data"
#: and a link), with the licences of the parts tactica uses.
ATTRIBUTION = (
    "Powered by 40kdc-data (https://40kdc.alpacasoft.dev): the wh40kdc dataset by Alpaca "
    "Software and the 40kdc community contributors; code MIT, schema content CC0, "
    "enrichment data CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)"
)


def installed_version() -> str | None:
    """The installed ``wh40kdc`` version, or ``None`` when it is not installed."""
    try:
        return metadata.version("wh40kdc")
    except metadata.PackageNotFoundError:
        return None
