"""Regenerate the frame fixtures and print the values python-blosc2 reports.

Usage: python3 gen_fixtures.py OUTDIR
Metalayer content bytes are read with blosc2.blosc2_ext.meta__getitem__, which
calls C-Blosc2's blosc2_meta_get() in the libblosc2 shipped with python-blosc2.
"""
import json, os, shutil, sys
import numpy as np
import blosc2

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

def clean(p):
    if os.path.isdir(p):
        shutil.rmtree(p)
    elif os.path.exists(p):
        os.remove(p)

def report(name, obj, path):
    s = obj.schunk if hasattr(obj, "schunk") else obj
    cp = s.cparams
    hdr = os.path.join(path, "chunks.b2frame") if os.path.isdir(path) else path
    keys = list(s.meta.keys())
    return {
        "fixture": name,
        "blosc2": blosc2.__version__,
        "c_blosc2": blosc2.VERSION_STRING,
        "file_len": os.path.getsize(hdr),
        "contiguous": s.contiguous,
        "typesize": s.typesize,
        "blocksize": s.blocksize,
        "chunksize": s.chunksize,
        "nbytes": s.nbytes,
        "cbytes": s.cbytes,
        "codec": cp.codec.value,
        "codec_name": cp.codec.name.lower(),
        "clevel": cp.clevel,
        "use_dict": bool(cp.use_dict),
        "splitmode": cp.splitmode.value,
        "filters": [f.value for f in cp.filters],
        "filters_meta": list(cp.filters_meta),
        "meta_names": keys,
        "meta_hex": {k: blosc2.blosc2_ext.meta__getitem__(s, k).hex() for k in keys},
        "vlmeta_names": list(s.vlmeta.getall().keys()) if len(s.vlmeta) else [],
    }

res = []

# 1. contiguous b2nd array
p = os.path.join(out, "contiguous.b2nd")
clean(p)
a = blosc2.asarray(np.arange(10, dtype=np.int32), urlpath=p, chunks=(5,), blocks=(5,),
                   cparams=blosc2.CParams(codec=blosc2.Codec.LZ4, clevel=5))
res.append(report("contiguous.b2nd", a, p))
del a

# 2. sparse (directory) b2nd array
p = os.path.join(out, "sparse.b2nd")
clean(p)
a = blosc2.asarray(np.arange(6, dtype=np.float64).reshape(2, 3), urlpath=p, contiguous=False,
                   chunks=(1, 3), blocks=(1, 3),
                   cparams=blosc2.CParams(codec=blosc2.Codec.ZSTD, clevel=3, use_dict=True))
res.append(report("sparse.b2nd", a, p))
del a

# 3. contiguous array with user metalayers (one with a 31-byte name) and a vlmeta
p = os.path.join(out, "usermeta.b2nd")
clean(p)
long_name = "m" * 31
a = blosc2.zeros((4, 4), dtype=np.uint16, urlpath=p, chunks=(2, 4), blocks=(1, 4),
                 cparams=blosc2.CParams(codec=blosc2.Codec.BLOSCLZ, clevel=9),
                 meta={"user": {"answer": 42}, long_name: [1, 2, 3]})
a.schunk.vlmeta["note"] = "hi"
res.append(report("usermeta.b2nd", a, p))
del a

print(json.dumps(res, indent=1))
