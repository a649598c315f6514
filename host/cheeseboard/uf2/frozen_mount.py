# The _boot.py frozen into a cheeseboard UF2 in place of MicroPython's own (host/cheeseboard/uf2/
# manifest.py swaps them). MicroPython's mounts LittleFS over the whole of the flash's storage;
# this one leaves its last JOURNAL_BLOCKS out, for a game's journal (cheesefw/engine/
# flash_journal.py): a move's line is a page program there, where an append to a file on
# LittleFS is an erase, 45 ms with interrupts off.
#
# A filesystem made over the whole storage (by MicroPython's own UF2, before this one) is
# mounted as it is, its files kept: the journal is then a file, as it was. A blank flash, or
# one that neither mounts, is formatted short of the region.
import rp2
import vfs

JOURNAL_BLOCKS = 16  # 64 KB: some 1,300 moves' lines; a longer game goes on in a file

_whole = rp2.Flash()
_short = rp2.Flash(start=0, len=(_whole.ioctl(4, 0) - JOURNAL_BLOCKS) * _whole.ioctl(5, 0))
try:
    _fs = vfs.VfsLfs2(_short, progsize=256)
except OSError:
    try:
        _fs = vfs.VfsLfs2(_whole, progsize=256)
    except OSError:
        vfs.VfsLfs2.mkfs(_short, progsize=256)
        _fs = vfs.VfsLfs2(_short, progsize=256)
vfs.mount(_fs, "/")
del rp2, vfs, _whole, _short, _fs
