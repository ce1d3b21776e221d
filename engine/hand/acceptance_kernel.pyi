# The C extension engine/hand/acceptance_kernel.c: what each function takes is in its header
# comment.
from array import array

_Buffer = bytes | bytearray | memoryview | array[int]

def load(
    ids: _Buffer, suits: int, join2: _Buffer, join3: _Buffer, final3: _Buffer, final2: _Buffer
) -> None: ...
def outcomes(
    counts: _Buffer,
    seen: _Buffer,
    discarded: _Buffer,
    allowed: _Buffer,
    copies: _Buffer,
    three_player: bool,
) -> list[tuple[int | None, int, int] | None]: ...
