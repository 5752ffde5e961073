//! A [`NewArray`] resolved into what writing it takes: the chunk grid (its chunks and
//! blocks python's or the caller's), the chunks' compression parameters, the frame's
//! header and trailer; everything C-Blosc2 or python-blosc2 would refuse is refused
//! here, before any file is touched.

use std::format;
use std::string::{String, ToString};
use std::vec::Vec;

use super::defaults::{chunks_and_blocks, Caches};
use super::options::NewArray;
use super::pipeline_check;
use crate::array::error::{ArrayError, ArrayErrorKind};
use crate::array::geometry::Grid;
use crate::blosc::{Filter, MAX_FILTERS};
use crate::chunk::{CParams, MAX_BLOCKSIZE, MAX_BUFFERSIZE};
use crate::dtype::Dtype;
use crate::frame::build::NewHeader;
use crate::meta::validate;
use crate::meta::MetaB2ndV1;

/// The metalayer python-blosc2 and C-Blosc2 keep an array's shapes and dtype in.
const ARRAY_METALAYER: &str = "b2nd";

/// What writing a new array takes.
#[derive(Debug)]
pub(crate) struct Layout {
    pub(crate) grid: Grid,
    pub(crate) dtype: Dtype,
    pub(crate) itemsize: usize,
    pub(crate) cparams: CParams,
    pub(crate) header: NewHeader,
    /// The frame's trailer (its vlmeta), and whether it holds any entry.
    pub(crate) trailer: (Vec<u8>, bool),
    /// Bytes of one chunk, padding included (`extchunknitems * typesize`).
    pub(crate) chunk_nbytes: usize,
    /// The array's bytes.
    pub(crate) nbytes: u128,
    /// Chunks in all.
    pub(crate) nchunks: u64,
    /// Rows of chunks along the first axis (one for a 0-d array).
    pub(crate) rows: u64,
    /// Chunks in one row.
    pub(crate) chunks_per_row: u64,
}

fn unwritable(what: &'static str, expected: &'static str, found: String) -> ArrayError {
    ArrayError::new(ArrayErrorKind::Unwritable {
        what,
        expected,
        found,
    })
}

/// `dims` as C stores them (`int32_t` chunk and block lengths).
fn as_i32(what: &'static str, dims: &[u64]) -> Result<Vec<i32>, ArrayError> {
    dims.iter()
        .map(|&d| i32::try_from(d))
        .collect::<Result<_, _>>()
        .map_err(|_| unwritable(what, "lengths below 2^31", format!("{dims:?}")))
}

/// The pipeline as python-blosc2 stores it (`create_cparams_from_kwargs` in
/// `blosc2_ext.pyx`): bytedelta, which does not work on 1-byte items, is dropped for
/// them; its meta 0 (the type size, to C) is written as the type size.
fn python_pipeline(
    mut filters: [(Filter, u8); MAX_FILTERS],
    itemsize: usize,
) -> [(Filter, u8); MAX_FILTERS] {
    for (filter, meta) in &mut filters {
        if *filter == Filter::ByteDelta {
            if itemsize == 1 {
                (*filter, *meta) = (Filter::None, 0);
            } else if *meta == 0 {
                // python's `<uint8_t>typesize`.
                *meta = itemsize as u8;
            }
        }
    }
    filters
}

/// The largest chunk kept longer than the array along an axis.
const PADDED_CHUNK_LIMIT: u128 = 64 << 20;

/// `chunks` (and `blocks`) cut to the array's length along the axes where they are
/// longer, when the chunk holds more than [`PADDED_CHUNK_LIMIT`] bytes: memory is then
/// bounded by the input (and the threads), whatever the chunks asked.
fn cut_to_the_array(
    shape: &[u64],
    mut chunks: Vec<u64>,
    mut blocks: Vec<u64>,
    itemsize: u64,
) -> (Vec<u64>, Vec<u64>) {
    let nbytes = chunks.iter().fold(u128::from(itemsize), |n, &c| {
        n.saturating_mul(u128::from(c))
    });
    if nbytes > PADDED_CHUNK_LIMIT {
        for ((c, b), &s) in chunks.iter_mut().zip(&mut blocks).zip(shape) {
            if *c > s {
                *c = s.max(1);
                *b = (*b).min(*c);
            }
        }
    }
    (chunks, blocks)
}

impl Layout {
    pub(crate) fn new(a: &NewArray) -> Result<Layout, ArrayError> {
        let itemsize = a.dtype.itemsize();
        let shape_i64: Vec<i64> = a
            .shape
            .iter()
            .map(|&d| i64::try_from(d))
            .collect::<Result<_, _>>()
            .map_err(|_| unwritable("the shape", "lengths below 2^63", format!("{:?}", a.shape)))?;
        let caches = a.caches.unwrap_or_else(Caches::of_this_machine);
        let (chunks, blocks) = chunks_and_blocks(
            &a.shape,
            itemsize,
            a.chunks.as_deref(),
            a.blocks.as_deref(),
            &caches,
        )
        .map_err(|e| ArrayError::new(ArrayErrorKind::Partition(e)))?;
        let (chunks, blocks) = cut_to_the_array(&a.shape, chunks, blocks, itemsize);
        let chunks_i32 = as_i32("the chunk shape", &chunks)?;
        let blocks_i32 = as_i32("the block shape", &blocks)?;
        let metadata = |e| ArrayError::new(ArrayErrorKind::Metadata(e));
        validate::check_with_itemsize(
            &shape_i64,
            &chunks_i32,
            &blocks_i32,
            Some(itemsize),
            Some(itemsize),
        )
        .map_err(metadata)?;
        validate::check_blocks_within_chunks(&chunks_i32, &blocks_i32).map_err(metadata)?;
        let grid = Grid::new(&a.shape, &chunks, &blocks)?;
        let itemsize_usize = usize::try_from(itemsize)
            .ok()
            .filter(|&i| i32::try_from(i).is_ok())
            .ok_or_else(|| unwritable("the dtype", "items below 2 GiB", itemsize.to_string()))?;
        let chunk_nbytes = grid.chunk_items as u128 * itemsize as u128;
        if chunk_nbytes > MAX_BUFFERSIZE as u128 {
            return Err(unwritable(
                "a chunk",
                "at most 2147483615 bytes (C-Blosc2's largest), padding to whole blocks included",
                format!("{chunk_nbytes} bytes"),
            ));
        }
        let block_nbytes = grid.block_items * itemsize_usize;
        if block_nbytes > MAX_BLOCKSIZE as usize {
            return Err(unwritable(
                "a block",
                "at most 536866816 bytes (C-Blosc2's largest)",
                format!("{block_nbytes} bytes"),
            ));
        }
        let filters = python_pipeline(a.filters, itemsize_usize);
        let cparams = CParams {
            codec: a.codec,
            clevel: a.clevel,
            typesize: itemsize_usize,
            blocksize: block_nbytes,
            splitmode: a.splitmode,
            filters,
        };
        cparams
            .check()
            .map_err(|e| ArrayError::new(ArrayErrorKind::Compress(e)))?;
        let refused = |reason: String| {
            let names: Vec<&str> = filters
                .iter()
                .filter(|(f, _)| *f != Filter::None)
                .map(|(f, _)| f.name().unwrap_or("?"))
                .collect();
            ArrayError::new(ArrayErrorKind::Pipeline {
                pipeline: format!("[{}]", names.join(", ")),
                reason,
            })
        };
        if let Some(reason) = pipeline_check::refusal(&filters).filter(|_| pipeline_check::on()) {
            return Err(refused(reason));
        }
        if pipeline_check::on() && !pipeline_check::reads_back(&cparams) {
            return Err(refused(format!(
                "C-Blosc2 3.3.5 decodes its chunks of {itemsize}-byte items to other bytes"
            )));
        }
        let per_axis = &grid.chunks_per_axis;
        let nchunks: u64 = per_axis.iter().product();
        if nchunks.saturating_mul(8) > MAX_BUFFERSIZE as u64 {
            return Err(unwritable(
                "the chunk grid",
                "fewer chunks than an offsets chunk indexes (268435451)",
                format!("{nchunks} chunks"),
            ));
        }
        let rows = per_axis.first().copied().unwrap_or(1);
        let chunks_per_row = per_axis.iter().skip(1).product();
        let array_meta = MetaB2ndV1::new(
            shape_i64.as_slice(),
            chunks_i32.as_slice(),
            blocks_i32.as_slice(),
            a.dtype.to_string().as_str(),
        )
        .encode_to_vec()
        .map_err(|e| {
            ArrayError::new(ArrayErrorKind::Layout {
                reason: format!("the b2nd metalayer does not encode: {e}"),
            })
        })?;
        let mut metalayers = Vec::with_capacity(a.metalayers.len() + 1);
        metalayers.push((ARRAY_METALAYER.to_string(), array_meta));
        metalayers.extend(a.metalayers.iter().cloned());
        let header = NewHeader {
            kind: a.kind,
            codec: a.codec,
            clevel: a.clevel,
            splitmode: a.splitmode,
            typesize: itemsize as u32,
            blocksize: block_nbytes as i32,
            chunksize: chunk_nbytes as i32,
            nthreads: a.threads.min(i16::MAX as usize) as i16,
            filters,
            metalayers,
        };
        header.check()?;
        let trailer = crate::vlmeta::new_trailer(&a.vlmeta)?;
        Ok(Layout {
            nbytes: a.shape.iter().map(|&d| u128::from(d)).product::<u128>() * itemsize as u128,
            itemsize: itemsize_usize,
            cparams,
            header,
            trailer,
            chunk_nbytes: chunk_nbytes as usize,
            nchunks,
            rows,
            chunks_per_row,
            grid,
            dtype: a.dtype.clone(),
        })
    }

    /// Elements of one position along the first axis (all of a 0-d array's one).
    pub(crate) fn row_items(&self) -> u128 {
        self.grid
            .shape
            .iter()
            .skip(1)
            .map(|&d| u128::from(d))
            .product()
    }

    /// Positions along the first axis that chunk row `row` covers.
    pub(crate) fn row_span(&self, row: u64) -> (u64, u64) {
        match (self.grid.shape.first(), self.grid.chunkshape.first()) {
            (Some(&len), Some(&c)) => (row * c, ((row + 1) * c).min(len)),
            _ => (0, 1),
        }
    }
}
