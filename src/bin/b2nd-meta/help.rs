//! The long help texts and examples of each command.

pub const EXAMPLES_SHORT: &str = "\
Try `b2nd-meta show -r data/`, `b2nd-meta export a.b2nd -o a.npy`; more in --help.";

pub const EXAMPLES: &str = "\
Examples:
  # What a file holds: header facts, metalayers, dtype, validation, vlmeta; a summary
  # on a terminal, one line of JSON when piped (--human and --json choose)
  b2nd-meta show array.b2nd

  # Every frame, sparse frame, store and bundle under a directory, found by content
  b2nd-meta show -r data/

  # The nodes of a store or bundle, with their shapes, dtypes and chunks
  b2nd-meta show store.b2z

  # The content of a b2nd metalayer (hex) as JSON
  b2nd-meta decode 97000090909000db000000033c6934

  # JSON (as decode prints it) back to the metalayer's bytes, as hex
  b2nd-meta encode '{\"layout\":\"b2nd-v1\",\"version\":0,\"ndim\":0,\"shape\":[],\"chunkshape\":[],\"blockshape\":[],\"dtype_format\":0,\"dtype\":\"<i4\"}'

  # A .npy file as a new array, as blosc2.asarray(np.load('array.npy')) writes it
  b2nd-meta import array.npy new.b2nd

  # Shell completions (bash, zsh, fish, elvish, powershell)
  b2nd-meta completions bash > ~/.local/share/bash-completion/completions/b2nd-meta

Resizing an array in place: b2nd-meta set-shape --help. Rewriting a user
metalayer in place: b2nd-meta set-meta --help.

Exit status: 0 on success, 1 when an input cannot be read or decoded (or a frame is
truncated), show finds nothing in a directory, or set-shape or set-meta refuses, 2 on a
usage error. Validation problems are reported, not failures.
A successful set-shape, set-meta, set-vlmeta or del-vlmeta prints nothing (--dry-run
prints what would change).

Errors: one line on stderr, `b2nd-meta: <PATH as given>: <what>[ at byte N]`, the same
for every command (`b2nd-meta: decode: ...`, `b2nd-meta: encode: ...` for their
arguments; a malformed SHAPE is a usage error). Axes and bytes count from 0:
  b2nd-meta: a.b2nd: cannot open: No such file or directory (os error 2)
  b2nd-meta: dir: a directory without chunks.b2frame, so not a sparse frame: cannot open dir/chunks.b2frame: ...
    (show looks into such a directory instead: nothing here is a Blosc2 frame, store or bundle ...)
  b2nd-meta: notes.txt: not a Blosc2 frame: expected 0x62 of the magic \"b2frame\\0\", found 0x6f at byte 2
  b2nd-meta: a.b2nd: not a readable Blosc2 frame: <what> at byte N
  b2nd-meta: ro.b2nd: cannot open for writing: Permission denied (os error 13)
  error: invalid value '12,x' for '<SHAPE>': axis 1 (\"x\") is not an integer: ...";

pub const SHOW_LONG: &str = "\
Print what each Blosc2 file holds: a summary for a person when stdout is a terminal,
else (piped, redirected) one JSON document per line; --human (-H) and --json (-j)
choose either. A frame's JSON:

  {\"path\": ..., \"frame\": {...}, \"metalayers\": {...}, \"vlmeta\": {...},
   \"array\": {...}}

\"frame\" has the header's facts (kind, header_len, frame_len, file_len, truncated,
typesize, blocksize, chunksize, nbytes, cbytes, codec, codec_code, clevel,
codec_meta, filters and filters_meta (the six slots, as python-blosc2's cparams
lists them), splitmode (1 always, 2 never, 3 auto, 4 forward-compatible), use_dict,
nchunks (null for chunks of variable size), cratio (nbytes / cbytes),
metalayer_names, and \"notes\" when the header holds what C-Blosc2 does not check
but would not write, each \"<what> at byte N\"). \"metalayers\" has one entry per
metalayer, in header order: the array's (b2nd, else caterva) decoded (the schema
`decode` prints); the array's as {\"raw_hex\": ..., \"error\": ...} when it does not
decode; any other (a user metalayer, a caterva one beside b2nd included) as
{\"value\": <its msgpack value as JSON>, \"raw_hex\": ...}, or {\"raw_hex\": ...,
\"error\": ...} when it is not one msgpack value (not a failure: C-Blosc2 does not
require msgpack there).
\"raw_hex\" holds at most the first 4096 bytes of a content; a longer one gets
\"raw_len\" (its length in bytes) after it. With --full-hex, \"raw_hex\" holds every
byte, streamed from the file as it is printed, and \"raw_len\" never appears.
\"array\" (when the b2nd, else caterva, metalayer decodes) has the parsed dtype with its
itemsize, C-Blosc2's validation problems and where the metalayer and the frame header
disagree (\"problems\"), and python-blosc2's stricter blocks-within-chunks rule. A
caterva metalayer beside a b2nd one is user data, shown raw.

\"vlmeta\" has one entry per variable-length metalayer (python-blosc2's
arr.vlmeta[name], kept in the frame's trailer), in trailer order: its value as JSON
(the same mapping as \"value\"), or {\"raw_hex\": <the stored chunk>, (\"raw_len\"),
\"error\": ...} when its chunk does not decode (a codec or filter not decoded, a
declared size over the decoder's 64 MiB limit or past the decode budget, not msgpack);
{} when there are none. One budget (--budget, 128M by default) bounds all a command
decodes: vlmeta values, and a store's chunks, each decoded once.
Neither fails show. A trailer that cannot be read gives \"vlmeta\": {} and
\"vlmeta_error\": \"<message> at byte N\" after it, exit status 0: C-Blosc2 needs the
header first, and the header is still reported.

A PATH is a contiguous frame (.b2nd, .b2frame) or a sparse frame's directory (its
chunks.b2frame is read); - reads a contiguous frame from stdin (shown as \"-\").
A PATH may also be a store or bundle python-blosc2 writes (an EmbedStore .b2e, a
DictStore or TreeStore .b2d directory or .b2z zip), or a frame of a kind it names
(ObjectArray, BatchArray, ListArray, a b2o object...): a store prints its record
({\"path\", \"kind\", \"entries\", \"notes\", \"frame\": <its embed.b2e>}), then one line
per entry python's keys() lists, {\"key\", \"location\", \"kind\", ...} and the same
fields as a frame, or \"error\" for a node that does not read (exit 1, the others still
listed). --key KEY (-k KEY) shows only the node KEY of the one store or bundle PATH,
as python-blosc2 spells it (/dir/name; hidden nodes too, such as /g1/__vlmeta__);
repeat it for several nodes, printed in the order given. A KEY is only ever given
with --key: `show STORE /dir/name` shows two paths, the second a file.
A PATH that is a directory, but neither a sparse frame (no chunks.b2frame) nor a
store (no embed.b2e), is looked into: each frame, sparse frame, store and bundle in it
is shown as if given, found by its content (a frame's magic, a zip holding embed.b2e,
a directory holding chunks.b2frame or embed.b2e), never by its suffix, in name order;
-r (--recursive) looks in its subdirectories too. Hidden entries (.name) and symbolic
links to directories are passed over; a directory where nothing is found is one error
line (exit 1). When stderr is a terminal and nothing was printed for a second, one
line on stderr says how far the scan is, erased before the next output
(B2ND_META_PROGRESS_AFTER=MS sets the wait).
--full-hex applies to JSON only (it implies --json): with --human it is refused.
\"path\" is the path as given; bytes of it that are not UTF-8
are printed as U+FFFD, and then \"path_bytes_hex\" follows with the path's exact bytes
as lowercase hex (absent for UTF-8 paths); error lines print the path the same lossy
way. Only the header and the trailer (two small reads at the frame's end) are read.
A file shorter than the frame its header declares is reported as truncated, after
printing what could be read.

\"value\" maps msgpack, with python-blosc2's conventions decoded, to JSON: nil, bool,
int, str, array and map as themselves (map keys in stored order); a tuple (stored as
[\"__tuple__\", ...]) as an array; a float NaN, inf, -inf as \"NaN\", \"Infinity\",
\"-Infinity\"; bin as {\"$bin\": \"<hex>\"}; ext 44 (complex) as {\"$complex\": [re, im]};
ext 45 (set) as {\"$set\": [...]}; ext 46 (NumPy array) as {\"$ndarray\": {\"dtype\":
\"<f8\", \"shape\": [...], \"data_hex\": \"<C-order bytes>\"}} (\"values\" instead of
\"data_hex\" for object arrays); any other ext (42, a nested frame, and 43, a reference,
included) as {\"$ext\": {\"type\": <code>, \"data_hex\": ...}}. A map key that is not a
string becomes its JSON text: 1 -> \"1\", [1,2] -> \"[1,2]\", null -> \"null\".";

pub const SHOW_EXAMPLES: &str = "\
Examples:
  b2nd-meta show array.b2nd
  b2nd-meta show --json array.b2nd sparse.b2nd
  b2nd-meta show -r data/
  b2nd-meta show store.b2z --key /dir/ext
  b2nd-meta show array.b2nd --slice '0, :5'
  b2nd-meta show array.b2nd -H --slice '..., -1'";

pub const DECODE_LONG: &str = "\
Decode the content of a b2nd (C-Blosc2, draft) or caterva metalayer, given as hex, and
print it as one line of JSON: {\"layout\", \"version\", \"ndim\", \"shape\", \"chunkshape\",
\"blockshape\"} and, where the layout has them, \"dtype_format\" and \"dtype\". The hex may
contain whitespace and one leading 0x; several arguments are joined; - alone reads stdin.
Decoding is strict: anything C-Blosc2 would not have written is an error naming its
byte offset.";

pub const DECODE_EXAMPLES: &str = "\
Examples:
  b2nd-meta decode 97000090909000db000000033c6934
  b2nd-meta decode '95 00 01 91 d3 00 00 00 00 00 00 00 0a 91 d2 00 00 00 05 91 d2 00 00 00 05'";

pub const ENCODE_LONG: &str = "\
Encode a metalayer given as JSON (the schema `decode` prints) and print its bytes as
lowercase hex. \"layout\" is \"b2nd-v1\" (what C-Blosc2 writes), \"b2nd\" (the draft) or
\"caterva-v0\"; \"ndim\" may be left out. Refused: more than 16 dimensions, shapes of
different lengths, a dtype_format above 127, a version other than 0, values out of
range. - reads the JSON from stdin.";

pub const ENCODE_EXAMPLES: &str = "\
Examples:
  b2nd-meta encode '{\"layout\":\"b2nd-v1\",\"shape\":[3,4],\"chunkshape\":[2,4],\"blockshape\":[1,2],\"dtype_format\":0,\"dtype\":\"<i4\"}'
  b2nd-meta decode 950000909090 | b2nd-meta encode -";

pub const SET_SHAPE_LONG: &str = "\
Change the shape of the array in a Blosc2 frame in place, as C-Blosc2 does when it
resizes an array: only the shape entries of its b2nd (or caterva) metalayer change,
nothing else in the file. Only changes within the chunk grid are possible (the same
number of chunks along every axis), because the chunks and their offsets are not
rewritten; the elements past the old shape read as whatever the chunks hold there.

PATH is a contiguous frame file or a sparse frame's directory (its chunks.b2frame is
rewritten). SHAPE is the new length of each axis, separated by commas ('' for ndim 0).
The file is locked (an advisory lock) while it is read, checked and written, and the
metalayer is written with one positioned write, then synced.

Refused with exit status 1 and one line on stderr, the file untouched: another number
of dimensions, a negative length, another chunk grid, a shape C-Blosc2 would refuse, a
frame cut short (the file shorter than its header says), a file changed meanwhile.
With --dry-run nothing is written: two lines of JSON (as decode prints them), the
metalayer now and the metalayer it would become.";

pub const SET_SHAPE_EXAMPLES: &str = "\
Examples:
  # (10, 7) in chunks of (4, 4) is 3 x 2 chunks; so is (12, 8)
  b2nd-meta set-shape --dry-run array.b2nd 12,8
  b2nd-meta set-shape array.b2nd 12,8
  b2nd-meta set-shape sparse_array.b2nd/ 100,100";

pub const SET_META_LONG: &str = "\
Rewrite the user metalayer NAME of a Blosc2 frame in place with a new value given as
JSON, in the mapping `show` prints ({\"$bin\": ...}, {\"$complex\": ...}, {\"$set\": ...},
{\"$ndarray\": ...}, {\"$ext\": ...} read back; object keys in the order given). The
value is written as python-blosc2 writes it (msgpack, most compact widths), so that
python-blosc2 reads it back.

As C-Blosc2's blosc2_meta_update, only a value whose encoding has exactly the length
of the current content can be written: another length is refused with exit status 1
and one line on stderr naming both lengths, the file untouched. The file is locked
while it is read, checked and written. The array's metalayer (b2nd, else caterva) is
refused here (use set-shape); a caterva metalayer beside a b2nd one is user data and is
rewritten, as python-blosc2 does. - reads the JSON from stdin.";

pub const SET_META_EXAMPLES: &str = "\
Examples:
  # python: blosc2.zeros(..., meta={\"units\": {\"t\": \"s\"}}); 's' -> 'h' keeps the length
  b2nd-meta set-meta array.b2nd units '{\"t\": \"h\"}'
  echo '[4, 5, 6]' | b2nd-meta set-meta array.b2nd mylist -";

pub const SET_VLMETA_LONG: &str = "\
Set the variable-length metalayer (vlmeta) NAME of a Blosc2 frame to a value given as
JSON, in the mapping `show` prints ({\"$bin\": ...}, {\"$complex\": ...}, {\"$set\": ...},
{\"$ndarray\": ...}, {\"$ext\": ...} read back): python-blosc2's arr.vlmeta[NAME] = value.
The value is packed as python-blosc2 packs it (msgpack) and stored as one Blosc2 chunk
(LZ4, or as it is when that does not pay) that python-blosc2 and C-Blosc2 read.

The new trailer is written past the live one and the header's frame_len flipped to it in
one small write, so a crash leaves the old vlmeta or the new one; chunks, the offsets
index and the metalayers are never written. At most 16 entries, names of at most 31
bytes. With BLOSC_LOCKING set, or when the frame's .b2lock sidecar exists, C-Blosc2's
lock protocol is followed. --dry-run prints what would change, as JSON, and writes
nothing. - reads the JSON from stdin.

With --key, PATH is a store (.b2z, .b2d, .b2e) and KEY its node, wherever it is (a
member, inside embed.b2e); / names the store itself: a TreeStore's vlmeta (python's
tstore.vlmeta, in its /__vlmeta__ SChunk, made when missing), an EmbedStore's. A .b2z
is written whole beside itself and renamed, as store put writes it.";

pub const SET_VLMETA_EXAMPLES: &str = "\
Examples:
  b2nd-meta set-vlmeta array.b2nd units '\"m/s\"'
  b2nd-meta set-vlmeta --dry-run array.b2nd attrs '{\"scale\": 0.5, \"tags\": [\"a\", \"b\"]}'
  echo '[1, 2, 3]' | b2nd-meta set-vlmeta sparse_dir.b2nd mylist -
  b2nd-meta set-vlmeta --key /dir/a data.b2z units '\"m\"'
  b2nd-meta set-vlmeta --key / tree.b2d author '\"me\"'";

pub const DEL_VLMETA_LONG: &str = "\
Delete the variable-length metalayer (vlmeta) NAME of a Blosc2 frame: python-blosc2's
del arr.vlmeta[NAME]. An unknown NAME is refused. Written as set-vlmeta writes
(crash-consistent, lock protocol; --key a store's node, / the store itself); --dry-run
prints what would change and writes nothing.";

pub const DEL_VLMETA_EXAMPLES: &str = "\
Examples:
  b2nd-meta del-vlmeta array.b2nd units
  b2nd-meta del-vlmeta --dry-run array.b2nd units
  b2nd-meta del-vlmeta --key /dir/a data.b2z units";

pub const COMPLETIONS_LONG: &str = "\
Print the completions of b2nd-meta's commands and options for SHELL, as clap_complete
writes them, to be saved where the shell loads completions from.";

pub const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  b2nd-meta completions bash > ~/.local/share/bash-completion/completions/b2nd-meta
  b2nd-meta completions zsh > ~/.zfunc/_b2nd-meta
  b2nd-meta completions fish > ~/.config/fish/completions/b2nd-meta.fish";

pub const WRITE_LONG: &str = "\
Write values into an array in place, as python's arr[SPEC] = values: the chunks the
selection touches are decoded, changed and compressed again with the array's own codec
and filters, then put in place in one step (a crash leaves the old array or the new
one). Metalayers and vlmeta stay as they are.

IN.npy (or - for stdin) must have the array's dtype; its shape broadcasts to the
selection's as numpy broadcasts an assignment (a single value sets every cell).
Prints nothing on success.";

pub const WRITE_EXAMPLES: &str = "\
Examples:
  b2nd-meta write a.b2nd --slice '2:5, :' rows.npy
  b2nd-meta write a.b2nd --slice '..., 0' zero.npy      # a 0-d .npy: one value everywhere";

pub const RESIZE_LONG: &str = "\
Resize an array in place, as python's arr.resize(shape): any axis grows or shrinks,
past the chunk grid. Cells a resize adds read as zeros, always (a chunk it cuts has its
cut cells cleared, so that growing it again, here or in python, shows zeros). One
crash-consistent step; prints nothing on success.";

pub const RESIZE_EXAMPLES: &str = "\
Examples:
  b2nd-meta resize a.b2nd 100,20";

pub const APPEND_LONG: &str = "\
Grow an array in place along --axis (default 0) by the values of IN.npy (or - for
stdin), whose dtype is the array's and whose other axes are the array's: python's
arr.append for 1-d arrays, any axis here. One crash-consistent step; prints nothing on
success.";

pub const APPEND_EXAMPLES: &str = "\
Examples:
  b2nd-meta append a.b2nd more_rows.npy
  b2nd-meta append a.b2nd --axis 1 more_columns.npy";
