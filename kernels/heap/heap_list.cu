// Device-side malloc and free: each thread builds a linked list of its own on the device heap
// (heap_list_build), and a second launch walks every list, sums it and frees its nodes
// (heap_list_sum). The heap outlives the first launch, as CUDA's does.
struct Node {
  unsigned value;
  Node* next;
};

extern "C" __global__ void heap_list_build(const unsigned* __restrict__ lengths,
                                           const unsigned* __restrict__ seeds,
                                           unsigned long long* __restrict__ heads, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Node* head = nullptr;
  unsigned v = seeds[i];
  for (unsigned k = 0; k < lengths[i]; ++k) {
    Node* node = static_cast<Node*>(malloc(sizeof(Node)));
    if (!node) break;  // the heap is full: the list is shorter, and the sum says so
    v = v * 1664525u + 1013904223u;
    node->value = v >> 8;
    node->next = head;
    head = node;
  }
  heads[i] = reinterpret_cast<unsigned long long>(head);
}

extern "C" __global__ void heap_list_sum(unsigned long long* __restrict__ heads,
                                         unsigned* __restrict__ sums, unsigned* __restrict__ counts,
                                         unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Node* node = reinterpret_cast<Node*>(heads[i]);
  unsigned sum = 0, count = 0;
  while (node) {
    Node* next = node->next;
    sum += node->value;
    ++count;
    free(node);
    node = next;
  }
  heads[i] = 0;
  sums[i] = sum;
  counts[i] = count;
}
