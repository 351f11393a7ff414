# Cython declarations for search/evaluate.py compiled by Cython in pure-Python mode
# (scripts/compare_cython.py copies this file beside the module at measurement time; the
# normal build is mypyc only). Compiled with annotation_typing=False: these types rule.
# i64 is long long; the native vectors (librt vec[i64]) export a buffer of format 'q', so
# the tables and the mailbox are read-only typed memoryviews over them (no copy).
cimport cython

# Imported tables and constants (engine.tables, engine.bits, engine.position).
cdef long long BB_ALL, BB_FILE_A, BB_FILE_H, BISHOP, KNIGHT, QUEEN, ROOK, PSQ_VERSION
cdef const long long[::1] KING_ATTACKS, PSQ

# This module's weights used per evaluation. Its derived tables (PST .. HANGING_BY_TYPE) stay
# Python objects: a vec's buffer is read-only, and rebuild_tables fills them in place.
cdef long long KS_NO_FLIGHT, KS_ONE_FLIGHT, KS_ATTACKERS_MIN, KS_LINEAR, KS_QUADRATIC, KS_MAX
cdef long long PHASE_MAX, BISHOP_PAIR, TEMPO
cdef long long PHASE_WEIGHT[7]  # a tuple in the .py, a C array here

cdef long long _ks_penalty(long long units, long long attackers)

@cython.locals(
    sq="const long long[::1]", occ_a="long long", occ_b="long long", black="long long", white="long long",
    kings="long long", pawns="long long", k0="long long", k1="long long", kb0="long long", kb1="long long",
    zone0="long long", zone1="long long", kn0="long long", dg0="long long", ot0="long long", qu0="long long",
    kn1="long long", dg1="long long", ot1="long long", qu1="long long", wp="long long", bp="long long",
    wpa_b="long long", bpa_b="long long", wpa_a="long long", bpa_a="long long", material="long long",
    phase="long long", mob_w="long long", blk_w="long long", rel_w="long long", units0="long long",
    attackers0="long long", aw_a="long long", aw_b="long long", mob_b="long long", blk_b="long long",
    rel_b="long long", units1="long long", attackers1="long long", ab_a="long long", ab_b="long long",
    mob="long long", blk="long long", rel="long long", att_w_a="long long", att_w_b="long long",
    att_b_a="long long", att_b_b="long long", kw="long long", kbl="long long", king="long long",
    own0="long long", flights0="long long", own1="long long", flights1="long long", danger0="long long",
    danger1="long long", threats="long long", _="long long",
)
cdef (long long, long long, long long, long long, long long, long long, long long, long long) _eval(pos)

@cython.locals(
    s="long long", p="long long", t="long long", b="long long", o="long long", other="long long",
    a="long long", d="long long", free="long long", n="long long", mob="long long", blk="long long",
    rel="long long", units="long long", attackers="long long", att_a="long long", att_b="long long",
    chk="long long",
)
cdef (long long, long long, long long, long long, long long, long long, long long) _side(
    const long long[::1] sq, long long pieces, long long mine, long long occ_a, long long occ_b, long long kbe,
    long long zone_e, long long kbo, long long zone_o, long long kn, long long dg, long long ot, long long qu)

cdef long long _flight_units(long long flights)

@cython.locals(total="long long", lsb="long long")
cdef long long _hanging(const long long[::1] sq, long long hanging)

@cython.locals(material="long long", king="long long", mob="long long", blk="long long", dw="long long",
               db="long long", threats="long long", rel="long long", score="long long")
cpdef long long evaluate(pos)
