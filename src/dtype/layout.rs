//! Struct layout as NumPy computes it: field offsets (packed, aligned or
//! explicit), alignment, itemsize, and the checks on names and titles.

use alloc::boxed::Box;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::error::{invalid, size_error, DtypeError};
use super::limits::MAX_ITEMSIZE;
use super::model::{Dtype, Field, Repr, Struct};

/// `value` rounded up to a multiple of `align`; `None` on overflow.
pub(super) fn round_up(value: u64, align: u64) -> Option<u64> {
    if align <= 1 {
        return Some(value);
    }
    let rem = value.checked_rem(align)?;
    if rem == 0 {
        Some(value)
    } else {
        value.checked_add(align.checked_sub(rem)?)
    }
}

/// A field while a struct is being built, with positions for errors.
pub(super) struct PendingField {
    pub(super) name: String,
    pub(super) name_pos: usize,
    pub(super) title: Option<String>,
    pub(super) title_pos: usize,
    pub(super) dtype: Dtype,
    /// Where the field's format starts.
    pub(super) pos: usize,
}

/// Lays out the fields (packed, aligned, or at explicit offsets), checks
/// names, titles and sizes, and builds the struct.
pub(super) fn finish_struct(
    pending: Vec<PendingField>,
    offsets: Option<Vec<(u64, usize)>>,
    itemsize: Option<(u64, usize)>,
    align: bool,
) -> Result<Dtype, DtypeError> {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for field in &pending {
        if !seen.insert(field.name.as_str()) {
            return Err(invalid(
                field.name_pos,
                "a field name not used before as a name or title",
                format!("{:?}", field.name),
            ));
        }
        if let Some(title) = &field.title
            && !seen.insert(title.as_str())
        {
            return Err(invalid(
                field.title_pos,
                "a title not used before as a name or title",
                format!("{title:?}"),
            ));
        }
    }

    let mut max_align: u64 = 1;
    let mut required: u64 = 0;
    let last_pos = pending.last().map_or(0, |field| field.pos);
    let mut fields = Vec::with_capacity(pending.len());
    for (i, field) in pending.into_iter().enumerate() {
        let size = field.dtype.itemsize();
        let field_align = if align { field.dtype.alignment() } else { 1 };
        max_align = max_align.max(field_align);
        let (offset, err_pos) = match offsets.as_ref().and_then(|o| o.get(i)) {
            Some(&(offset, offset_pos)) => {
                if offset % field_align != 0 {
                    return Err(invalid(
                        offset_pos,
                        format!("an offset divisible by the field alignment {field_align}"),
                        format!("{offset}"),
                    ));
                }
                (offset, offset_pos)
            }
            None => match round_up(required, field_align) {
                Some(offset) => (offset, field.pos),
                None => return Err(size_error(field.pos, "a struct")),
            },
        };
        let end = match offset.checked_add(size) {
            Some(end) if end <= MAX_ITEMSIZE => end,
            _ => return Err(size_error(err_pos, "a struct")),
        };
        required = if offsets.is_some() {
            required.max(end)
        } else {
            end
        };
        fields.push(Field {
            name: field.name,
            title: field.title,
            dtype: field.dtype,
            offset,
        });
    }
    let required = match round_up(required, max_align) {
        Some(r) if r <= MAX_ITEMSIZE => r,
        _ => return Err(size_error(last_pos, "a struct")),
    };
    let total = match itemsize {
        Some((size, size_pos)) => {
            if size < required {
                return Err(invalid(
                    size_pos,
                    format!("an itemsize of at least {required} (the fields' extent)"),
                    format!("{size}"),
                ));
            }
            if size % max_align != 0 {
                return Err(invalid(
                    size_pos,
                    format!("an itemsize divisible by the struct alignment {max_align}"),
                    format!("{size}"),
                ));
            }
            size
        }
        None => required,
    };
    Ok(Dtype::of(Repr::Struct(Box::new(Struct {
        fields,
        itemsize: total,
        aligned: align,
        alignment: if align { max_align } else { 1 },
    }))))
}
