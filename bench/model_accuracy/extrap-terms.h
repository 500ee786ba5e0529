/* Extra-P's 42 default single-parameter terms p^(n/d) * log2(p)^k as (n, d, k), in the order of
 * Extra-P's own noise-free test (extra-p/extrap tests/test_basic_modeler.py, test_modeling);
 * shared by the modeler unit test and the accuracy benchmark. */
#ifndef MV_EXTRAP_TERMS_H
#define MV_EXTRAP_TERMS_H

#define MV_EXTRAP_NTERMS 42
static const int mv_extrap_terms[MV_EXTRAP_NTERMS][3] = {
  {0, 1, 1}, {0, 1, 2}, {1, 4, 0}, {1, 3, 0}, {1, 4, 1}, {1, 3, 1}, {1, 4, 2}, {1, 3, 2},
  {1, 2, 0}, {1, 2, 1}, {1, 2, 2}, {2, 3, 0}, {3, 4, 0}, {2, 3, 1}, {3, 4, 1}, {4, 5, 0},
  {2, 3, 2}, {3, 4, 2}, {1, 1, 0}, {1, 1, 1}, {1, 1, 2}, {5, 4, 0}, {5, 4, 1}, {4, 3, 0},
  {4, 3, 1}, {3, 2, 0}, {3, 2, 1}, {3, 2, 2}, {5, 3, 0}, {7, 4, 0}, {2, 1, 0}, {2, 1, 1},
  {2, 1, 2}, {9, 4, 0}, {7, 3, 0}, {5, 2, 0}, {5, 2, 1}, {5, 2, 2}, {8, 3, 0}, {11, 4, 0},
  {3, 1, 0}, {3, 1, 1}};

#endif
