# scc.awk: the strongly connected components of a directed graph, by
# Tarjan's algorithm. Input: one edge a line, "from to". Output: each
# component of two or more nodes on one line, its nodes sorted and
# separated by spaces, the components sorted by their first node.
{
	if (!($1 in id)) { id[$1] = ++nn; name[nn] = $1 }
	if (!($2 in id)) { id[$2] = ++nn; name[nn] = $2 }
	a = id[$1]; b = id[$2]
	if (a != b && !((a, b) in edge)) { edge[a, b] = 1; out[a, ++deg[a]] = b }
}
function visit(v,    i, w, comp, n, k, j, t) {
	index_[v] = low[v] = ++counter
	stack[++sp] = v; on[v] = 1
	for (i = 1; i <= deg[v]; i++) {
		w = out[v, i]
		if (!(w in index_)) {
			visit(w)
			if (low[w] < low[v]) low[v] = low[w]
		} else if (on[w] && index_[w] < low[v])
			low[v] = index_[w]
	}
	if (low[v] == index_[v]) {
		n = 0
		do { w = stack[sp--]; on[w] = 0; comp[++n] = name[w] } while (w != v)
		if (n > 1) {
			for (k = 2; k <= n; k++)  # insertion sort
				for (j = k; j > 1 && comp[j - 1] > comp[j]; j--) {
					t = comp[j]; comp[j] = comp[j - 1]; comp[j - 1] = t
				}
			line = comp[1]
			for (k = 2; k <= n; k++) line = line " " comp[k]
			comps[++nc] = line
		}
	}
}
END {
	for (v = 1; v <= nn; v++) if (!(v in index_)) visit(v)
	for (k = 2; k <= nc; k++)
		for (j = k; j > 1 && comps[j - 1] > comps[j]; j--) {
			t = comps[j]; comps[j] = comps[j - 1]; comps[j - 1] = t
		}
	for (k = 1; k <= nc; k++) print comps[k]
}
