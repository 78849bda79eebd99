#include <cstdio>
int main() { std::puts("causegate"); return 0; }
