/* Shared by both files of the legacy program. Old style: the variable is
 * defined (not declared) here, in every file that includes it (a common
 * symbol), and the function is declared without a prototype. */
int total_calls;
double scale();
int count_global();
