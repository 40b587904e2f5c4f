package store

import (
	"database/sql"
	"fmt"
	"strings"
)

// scanner is a row to scan: *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// scanAll reads every row of a query, scan filling one item from the
// current row, and closes the rows. A failed query is wrapped as
// "store: what"; an error from scan (a row that does not convert, a
// checksum that does not match) is returned as it is.
func scanAll[T any](rows *sql.Rows, err error, what string, scan func(scanner, *T) error) ([]T, error) {
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := scan(rows, &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// scanValue scans a row of one column.
func scanValue[T any](r scanner, v *T) error { return r.Scan(v) }

// first is the first of the items a query returned, and whether there was
// one.
func first[T any](items []T, err error) (T, bool, error) {
	if err != nil || len(items) == 0 {
		var zero T
		return zero, false, err
	}
	return items[0], true, nil
}

// maxIn is the most values a query puts in one IN list, well under SQLite's
// limit on bound parameters.
const maxIn = 500

// MaxIn is maxIn for callers that reproduce a query's order from rows
// they hold: a list of up to MaxIn values is one query.
const MaxIn = maxIn

// inChunks runs a query with an IN list over values, maxIn at a time, and
// joins what the chunks return: query gets the placeholders of a chunk's
// list and its arguments.
func inChunks[V, T any](values []V, query func(in string, args []any) ([]T, error)) ([]T, error) {
	var out []T
	for _, chunk := range chunks(values, maxIn) {
		items, err := query(placeholders(len(chunk)), anys(chunk))
		if err != nil {
			return nil, err
		}
		out = append(out, items...)
	}
	return out, nil
}

// placeholders is the parameter list of n values: "?,?,?".
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

// valueRows is the VALUES list of an insert of n rows of cols columns:
// "(?,?),(?,?)".
func valueRows(cols, n int) string {
	return strings.TrimSuffix(strings.Repeat("("+placeholders(cols)+"),", n), ",")
}

// anys converts values to query arguments.
func anys[V any](values []V) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

// chunks splits s into pieces of at most n items.
func chunks[V any](s []V, n int) [][]V {
	var out [][]V
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	if len(s) > 0 {
		out = append(out, s)
	}
	return out
}
