"""cheeseboard host tool: flash, simulate and sync the cheeseboard."""

__version__ = "0.1.0"
