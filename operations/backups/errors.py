"""What the backup and restore commands refuse, with a message the office can act on."""


class BackupError(Exception):
    """The backup (or a step of the restore) could not be made; nothing was written
    in its place."""


class RestoreRefused(Exception):
    """The restore was refused before anything was changed: a damaged or altered
    archive, a target that is not empty, or an archive this code cannot read."""
