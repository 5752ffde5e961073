//! From literals to dtypes: subarrays, and structs from the list and dict forms, as
//! NumPy builds them (the layout of a struct's fields is in `layout`).

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::error::{invalid, nesting_error, size_error, too_large, DtypeError, Loc};
use super::layout::{finish_struct, PendingField};
use super::limits::{MAX_ITEMSIZE, MAX_NDIM, MAX_NESTING};
use super::literal::Lit;
use super::model::{Dtype, Repr, Subarray};
use super::typestr::parse_typestr;

pub(super) fn dtype_from_lit(
    lit: &Lit<'_>,
    align: bool,
    depth: usize,
) -> Result<Dtype, DtypeError> {
    if depth > MAX_NESTING {
        return Err(nesting_error(lit.pos()));
    }
    match lit {
        Lit::Str {
            text,
            pos,
            verbatim,
        } => {
            let loc = if *verbatim {
                Loc::Shift(pos.saturating_add(1))
            } else {
                Loc::Fixed(*pos)
            };
            parse_typestr(text).map_err(|e| e.relocate(loc))
        }
        Lit::List(items, _) => struct_from_list(items, align, depth),
        Lit::Dict(entries, pos) => struct_from_dict(entries, *pos, align, depth),
        Lit::Tuple(items, pos) => match items.as_slice() {
            [base, shape] => {
                let base_dt = dtype_from_lit(base, align, depth.saturating_add(1))?;
                let dims = shape_from_lit(shape)?;
                make_subarray(base_dt, dims, base.pos(), shape.pos())
            }
            _ => Err(invalid(
                *pos,
                "a (format, shape) tuple of 2 items",
                lit.describe(),
            )),
        },
        other => Err(invalid(
            other.pos(),
            "a dtype string, list, dict or (format, shape) tuple",
            other.describe(),
        )),
    }
}

pub(super) fn non_negative(lit: &Lit<'_>, what: &str) -> Result<u64, DtypeError> {
    match lit {
        Lit::Int {
            value,
            negative: false,
            ..
        }
        | Lit::Int {
            value: value @ 0, ..
        } => {
            if *value > MAX_ITEMSIZE {
                Err(too_large(
                    lit.pos(),
                    format!("{what} of at most {MAX_ITEMSIZE}"),
                    lit.describe(),
                ))
            } else {
                Ok(*value)
            }
        }
        _ => Err(invalid(
            lit.pos(),
            format!("{what} (a non-negative integer)"),
            lit.describe(),
        )),
    }
}

pub(super) fn shape_from_lit(lit: &Lit<'_>) -> Result<Vec<u64>, DtypeError> {
    match lit {
        Lit::Int { .. } => Ok(alloc::vec![non_negative(lit, "a dimension")?]),
        Lit::Tuple(items, pos) | Lit::List(items, pos) => {
            if items.len() > MAX_NDIM {
                return Err(too_large(
                    *pos,
                    format!("a shape of at most {MAX_NDIM} dimensions"),
                    format!("{} dimensions", items.len()),
                ));
            }
            items
                .iter()
                .map(|item| non_negative(item, "a dimension"))
                .collect()
        }
        other => Err(invalid(
            other.pos(),
            "a shape (an integer or a tuple of integers)",
            other.describe(),
        )),
    }
}

pub(super) fn make_subarray(
    base: Dtype,
    shape: Vec<u64>,
    base_pos: usize,
    shape_pos: usize,
) -> Result<Dtype, DtypeError> {
    // NumPy checks this before looking at the shape, so `('S0', ())` is an
    // error too.
    if base.is_unsized() {
        return Err(invalid(
            base_pos,
            "a subarray element type with a size",
            format!("the unsized type {base}"),
        ));
    }
    if shape.is_empty() {
        return Ok(base);
    }
    let itemsize = if shape.contains(&0) {
        0
    } else {
        let mut total = base.itemsize();
        for dim in &shape {
            total = match total.checked_mul(*dim) {
                Some(t) if t <= MAX_ITEMSIZE => t,
                _ => return Err(size_error(shape_pos, "a subarray")),
            };
        }
        total
    };
    Ok(Dtype::of(Repr::Subarray(Box::new(Subarray {
        base,
        shape,
        itemsize,
    }))))
}

pub(super) fn text_of(lit: &Lit<'_>) -> Option<String> {
    match lit {
        Lit::Str { text, .. } => Some(text.to_string()),
        _ => None,
    }
}

pub(super) fn struct_from_list(
    items: &[Lit<'_>],
    align: bool,
    depth: usize,
) -> Result<Dtype, DtypeError> {
    let mut pending = Vec::with_capacity(items.len().min(1024));
    for (index, item) in items.iter().enumerate() {
        let parts = match item {
            Lit::Tuple(parts, _) if parts.len() == 2 || parts.len() == 3 => parts,
            other => {
                return Err(invalid(
                    other.pos(),
                    "a field tuple (name, format) or (name, format, shape)",
                    other.describe(),
                ));
            }
        };
        let (name_lit, format_lit) = match parts.as_slice() {
            [n, f] | [n, f, _] => (n, f),
            _ => return Err(invalid(item.pos(), "a field tuple", item.describe())),
        };
        let (title, title_pos, name, name_pos) = match name_lit {
            Lit::Str { .. } => (None, 0, text_of(name_lit), name_lit.pos()),
            Lit::Tuple(pair, _) if pair.len() == 2 => {
                let (title_lit, inner_name) = match pair.as_slice() {
                    [t, n] => (t, n),
                    _ => {
                        return Err(invalid(
                            name_lit.pos(),
                            "a (title, name) pair",
                            name_lit.describe(),
                        ));
                    }
                };
                let title = match title_lit {
                    Lit::None(_) => None,
                    Lit::Str { .. } => text_of(title_lit),
                    other => {
                        return Err(invalid(
                            other.pos(),
                            "a field title (a string or None)",
                            other.describe(),
                        ));
                    }
                };
                (
                    title,
                    title_lit.pos(),
                    text_of(inner_name),
                    inner_name.pos(),
                )
            }
            other => {
                return Err(invalid(
                    other.pos(),
                    "a field name (a string or a (title, name) pair)",
                    other.describe(),
                ));
            }
        };
        let Some(mut name) = name else {
            return Err(invalid(name_pos, "a field name (a string)", "a non-string"));
        };
        if name.is_empty() {
            if title.is_some() {
                return Err(invalid(
                    name_pos,
                    "a non-empty field name next to a title",
                    "an empty name",
                ));
            }
            name = format!("f{index}");
        }
        let dtype = match parts.as_slice() {
            [_, _, shape_lit] => {
                let shape = shape_from_lit(shape_lit)?;
                // With a shape, the field's dtype is a subarray and the
                // format is its element, one level further down.
                let format_depth = depth.saturating_add(if shape.is_empty() { 1 } else { 2 });
                let base = dtype_from_lit(format_lit, align, format_depth)?;
                make_subarray(base, shape, format_lit.pos(), shape_lit.pos())?
            }
            _ => dtype_from_lit(format_lit, align, depth.saturating_add(1))?,
        };
        pending.push(PendingField {
            name,
            name_pos,
            title,
            title_pos,
            dtype,
            pos: item.pos(),
        });
    }
    finish_struct(pending, None, None, align)
}

pub(super) fn struct_from_dict(
    entries: &[(Lit<'_>, Lit<'_>)],
    pos: usize,
    align_in: bool,
    depth: usize,
) -> Result<Dtype, DtypeError> {
    let mut names = None;
    let mut formats = None;
    let mut offsets = None;
    let mut titles = None;
    let mut itemsize = None;
    let mut aligned = None;
    for (key, value) in entries {
        if let Lit::Str { text, .. } = key {
            match text.as_ref() {
                "names" => names = Some(value),
                "formats" => formats = Some(value),
                "offsets" => offsets = Some(value),
                "titles" => titles = Some(value),
                "itemsize" => itemsize = Some(value),
                "aligned" => aligned = Some(value),
                // NumPy ignores other keys.
                _ => {}
            }
        }
    }
    let align = match aligned {
        None => align_in,
        Some(Lit::Bool(b, _)) => align_in || *b,
        Some(other) => {
            return Err(invalid(
                other.pos(),
                "True or False for 'aligned'",
                other.describe(),
            ));
        }
    };
    let Some(names) = names else {
        return Err(invalid(pos, "a dict with a 'names' key", "no 'names'"));
    };
    let Some(formats) = formats else {
        return Err(invalid(pos, "a dict with a 'formats' key", "no 'formats'"));
    };
    let seq = |lit: &Lit<'_>, key: &str| -> Result<usize, DtypeError> {
        lit.sequence()
            .map(<[Lit<'_>]>::len)
            .ok_or_else(|| invalid(lit.pos(), format!("a list for '{key}'"), lit.describe()))
    };
    let n = seq(names, "names")?;
    for (lit, key) in [
        (Some(formats), "formats"),
        (offsets, "offsets"),
        (titles, "titles"),
    ] {
        if let Some(lit) = lit {
            let len = seq(lit, key)?;
            if len != n {
                return Err(invalid(
                    lit.pos(),
                    format!("{n} '{key}' (one per name)"),
                    format!("{len}"),
                ));
            }
        }
    }
    let empty: &[Lit<'_>] = &[];
    let name_lits = names.sequence().unwrap_or(empty);
    let format_lits = formats.sequence().unwrap_or(empty);
    let title_lits = titles.and_then(Lit::sequence);
    let mut pending = Vec::with_capacity(n.min(1024));
    for (i, (name_lit, format_lit)) in name_lits.iter().zip(format_lits).enumerate() {
        let Some(name) = text_of(name_lit) else {
            return Err(invalid(
                name_lit.pos(),
                "a field name (a string)",
                name_lit.describe(),
            ));
        };
        let (title, title_pos) = match title_lits.and_then(|t| t.get(i)) {
            None | Some(Lit::None(_)) => (None, 0),
            Some(t @ Lit::Str { .. }) => (text_of(t), t.pos()),
            Some(other) => {
                return Err(invalid(
                    other.pos(),
                    "a field title (a string or None)",
                    other.describe(),
                ));
            }
        };
        let dtype = dtype_from_lit(format_lit, align, depth.saturating_add(1))?;
        pending.push(PendingField {
            name,
            name_pos: name_lit.pos(),
            title,
            title_pos,
            dtype,
            pos: format_lit.pos(),
        });
    }
    let offset_values = match offsets.and_then(Lit::sequence) {
        Some(lits) => Some(
            lits.iter()
                .map(|l| non_negative(l, "a field offset").map(|v| (v, l.pos())))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        None => None,
    };
    let itemsize_value = match itemsize {
        Some(lit) => Some((non_negative(lit, "an itemsize")?, lit.pos())),
        None => None,
    };
    finish_struct(pending, offset_values, itemsize_value, align)
}
